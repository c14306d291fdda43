package org.robostream.torch.dist;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import org.robostream.stream.RankWorld;

/**
 * One rank that only meets the others: joins at the launcher's rendezvous with the job secret of
 * its environment and one setting ({@code SETTING}), takes part in one barrier, and prints "joined"
 * (exit 0); a {@link DistributedException} prints its message (exit 3). With {@code STOP_FILE} set,
 * the ranks then keep exchanging (a broadcast of rank 0's count every 20 ms, checked on every rank)
 * until that file exists, and print how many they held. Args: the timeout in seconds.
 */
public final class JoinProcess {
  private JoinProcess() {}

  public static void main(String[] args) {
    Duration timeout = Duration.ofSeconds(Long.parseLong(args[0]));
    RankWorld ranks = RankWorld.resolve(OptionalInt.empty(), OptionalInt.empty(), System.getenv());
    Rendezvous rv = Rendezvous.fromEnvironment(ranks, System.getenv());
    JobCheck job =
        JobCheck.of(
            System.getenv(),
            Path.of(System.getProperty("user.home")),
            Map.of("--lr", System.getenv().getOrDefault("SETTING", "0.001")));
    // libtorch's loading (seconds on a loaded machine) is not a wait at the rendezvous: not timed.
    org.robostream.torch.TorchNatives.load();
    long start = System.nanoTime();
    try (DataParallel group = DataParallel.join(rv, DataParallel.Backend.GLOO, timeout, job)) {
      group.barrier("the test's barrier");
      System.out.println("joined in " + (System.nanoTime() - start) / 1_000_000 + " ms");
      String stop = System.getenv("STOP_FILE");
      if (stop != null) {
        System.out.println("held " + hold(group, Path.of(stop)) + " collectives");
      }
    } catch (DistributedException e) {
      System.out.println("robostream: " + e.getMessage());
      System.out.println("failed after " + (System.nanoTime() - start) / 1_000_000 + " ms");
      System.out.flush();
      Runtime.getRuntime().halt(3); // a rendezvous thread may still be stuck in native code
    }
    System.out.flush();
    Runtime.getRuntime().halt(0);
  }

  /** Exchanges until {@code stop} exists (rank 0 decides, so every rank stops at one round). */
  private static long hold(DataParallel group, Path stop) {
    long rounds = 0;
    while (true) {
      long said = group.broadcastLong(java.nio.file.Files.exists(stop) ? -1 : rounds);
      if (said == -1) {
        return rounds;
      }
      if (said != rounds) {
        throw new IllegalStateException("broadcast " + rounds + " gave " + said);
      }
      rounds++;
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return rounds;
      }
    }
  }
}
