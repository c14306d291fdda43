package org.robostream.torch.policy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import org.bytedeco.javacpp.PointerScope;
import org.robostream.stream.RankWorld;
import org.robostream.torch.dist.DataParallel;
import org.robostream.torch.dist.DistributedException;
import org.robostream.torch.dist.JobCheck;
import org.robostream.torch.dist.Rendezvous;

/**
 * One rank of {@link DataParallelProcessTest}, in its own JVM as a launcher starts it: rank, world
 * and rendezvous from torchrun's variables, then {@code <mode> <out-dir> <timeout-s>}. Trains
 * {@link PolicyTrainerTest}'s fixed steps on its half of each batch and writes its weights to
 * {@code <out-dir>/rank<r>.safetensors}. Modes: {@code train} (steps 0-3), {@code idle} (rank 1 has
 * no batch at step 3), {@code first-half} (steps 0-1, then a checkpoint in {@code
 * <out-dir>/ckpt-rank<r>}), {@code second-half} (restores that checkpoint, steps 2-3), {@code nan}
 * (rank 1's actions are NaN at step 2). Exit 3 with the message on a {@link DistributedException},
 * 4 on a failed step.
 */
public final class RankProcess {
  private RankProcess() {}

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    Path out = Path.of(args[1]);
    Duration timeout = Duration.ofSeconds(Long.parseLong(args[2]));
    RankWorld ranks = RankWorld.resolve(OptionalInt.empty(), OptionalInt.empty(), System.getenv());
    Rendezvous rv = Rendezvous.fromEnvironment(ranks, System.getenv());
    int rank = rv.rank();
    Path checkpoint = out.resolve("ckpt-rank" + rank);
    JobCheck job =
        JobCheck.of(
            System.getenv(),
            Path.of(System.getProperty("user.home")),
            Map.of("mode", System.getenv().getOrDefault("RANK_SETTING", mode)));
    try (DataParallel group = DataParallel.join(rv, DataParallel.Backend.GLOO, timeout, job);
        PolicyTrainer t =
            mode.equals("second-half")
                ? PolicyTrainer.restore(
                    checkpoint, PolicyTrainerTest.config(), PolicyTrainerTest.cpu(), group)
                : PolicyTrainer.create(
                    PolicyTrainerTest.config(), PolicyTrainerTest.cpu(), group)) {
      int from = mode.equals("second-half") ? 2 : 0;
      int to = mode.equals("first-half") ? 2 : 4;
      for (int k = from; k < to; k++) {
        if (mode.equals("idle") && rank == 1 && k == 3) {
          t.stepWithoutBatch();
          continue;
        }
        try (PointerScope scope = new PointerScope()) {
          PolicyInputs in = PolicyTrainerTest.inputs(k, rank * 8, 8);
          if (mode.equals("nan") && rank == 1 && k == 2) {
            in.action().fill_(new org.bytedeco.pytorch.Scalar(Double.NaN));
          }
          t.step(in);
        }
      }
      if (mode.equals("first-half")) {
        t.save(checkpoint);
      }
      Files.createDirectories(out);
      SafeTensors.write(
          out.resolve("rank" + rank + ".safetensors"),
          t.weights(),
          Map.of(
              "optimizer_steps",
              Long.toString(t.optimizerSteps()),
              "all_reduces",
              Long.toString(group.allReduces())));
      System.out.println("rank " + rank + " done: " + t.optimizerSteps() + " steps");
    } catch (DistributedException e) {
      System.out.println("robostream: " + e.getMessage());
      System.exit(3);
    } catch (IllegalStateException e) {
      System.out.println("robostream: " + e.getMessage());
      System.exit(4);
    }
  }
}
