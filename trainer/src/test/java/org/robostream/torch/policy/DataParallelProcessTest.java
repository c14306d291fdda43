package org.robostream.torch.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Processes;
import org.robostream.torch.dist.DataParallel;

/**
 * Synchronous data parallelism as it runs: each rank a JVM of its own, started together as torchrun
 * starts them (MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE, LOCAL_RANK), meeting over a real
 * TCPStore and Gloo group on this machine ({@link RankProcess}). The first pair extracts libtorch
 * into a fresh JavaCPP cache at the same time, which crashed a JVM before the cache was locked.
 *
 * <p>One process per rank, not one thread: libtorch as JavaCPP ships it gave NaN gradients now and
 * then when two threads of one JVM ran backward passes at once (measured here while writing these
 * tests); the trainer's contract is one training thread per process, as every launcher runs it.
 */
class DataParallelProcessTest {
  private static final long TIMEOUT_S = 240;

  private static List<Process> start(String mode, Path out, Path cache, int timeout, int... ranks)
      throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    List<Process> started = new ArrayList<>();
    for (int rank : ranks) {
      Map<String, String> env = new HashMap<>();
      env.put("MASTER_ADDR", "127.0.0.1");
      env.put("MASTER_PORT", Integer.toString(port));
      env.put("RANK", Integer.toString(rank));
      env.put("WORLD_SIZE", "2");
      env.put("LOCAL_RANK", Integer.toString(rank));
      for (String v : List.of("SLURM_PROCID", "SLURM_NTASKS", "OMPI_COMM_WORLD_RANK")) {
        env.put(v, null);
      }
      List<String> command =
          new ArrayList<>(
              Processes.javaMain(
                  RankProcess.class.getName(), mode, out.toString(), Integer.toString(timeout)));
      if (cache != null) {
        command.add(1, "-Dorg.bytedeco.javacpp.cachedir=" + cache);
      }
      started.add(Processes.start(env, command));
    }
    return started;
  }

  /** Waits for {@code processes}; returns each one's exit code and output. */
  private static List<Processes.Result> finish(List<Process> processes) throws Exception {
    List<Processes.Result> out = new ArrayList<>();
    for (Process p : processes) {
      byte[] text = p.getInputStream().readAllBytes();
      if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("a rank ran past " + TIMEOUT_S + " s");
      }
      out.add(new Processes.Result(p.exitValue(), new String(text, StandardCharsets.UTF_8)));
    }
    return out;
  }

  private static void run(String mode, Path out, Path cache) throws Exception {
    List<Processes.Result> ranks = finish(start(mode, out, cache, 120, 0, 1));
    for (Processes.Result r : ranks) {
      assertEquals(
          0,
          r.rc(),
          mode
              + ": rank 0 (exit "
              + ranks.get(0).rc()
              + "):\n"
              + ranks.get(0).output()
              + "\nrank 1 (exit "
              + ranks.get(1).rc()
              + "):\n"
              + ranks.get(1).output());
    }
  }

  private static SafeTensors.Contents replica(Path out, int rank) {
    return SafeTensors.read(out.resolve("rank" + rank + ".safetensors"), 1L << 30);
  }

  @Test
  void twoRanksTrainOneModelAndResumeExactly(@TempDir Path tmp) throws Exception {
    Path together = tmp.resolve("together");
    run("train", together, tmp.resolve("fresh-javacpp-cache"));
    SafeTensors.Contents rank0 = replica(together, 0);
    SafeTensors.Contents rank1 = replica(together, 1);
    // Replicas are byte-identical: same values in every parameter, on every rank.
    PolicyTrainerTest.assertSameWeights(rank0.tensors(), rank1.tensors(), 0);
    assertEquals("4", rank0.metadata().get("optimizer_steps"));
    assertEquals("4", rank0.metadata().get("all_reduces"));

    // One rank with both halves of every batch reaches the same weights. The mean of the two
    // half-batch means is the whole batch's mean (no padded position in these chunks); float sums
    // in another order differ in the last bits, which Adam's normalised steps carry: 1e-4.
    try (PolicyTrainer single =
        PolicyTrainer.create(
            PolicyTrainerTest.config(), PolicyTrainerTest.cpu(), DataParallel.single())) {
      PolicyTrainerTest.train(single, 0, 4, 0, 16);
      PolicyTrainerTest.assertSameWeights(single.weights(), rank0.tensors(), 1e-4);
    }

    // Stopped after step 2 and resumed by two new processes: the uninterrupted weights, exactly.
    Path resumed = tmp.resolve("resumed");
    run("first-half", resumed, null);
    run("second-half", resumed, null);
    for (int rank = 0; rank < 2; rank++) {
      PolicyTrainerTest.assertSameWeights(rank0.tensors(), replica(resumed, rank).tensors(), 0);
    }
    assertArrayEquals(
        Files.readAllBytes(together.resolve("rank0.safetensors")),
        Files.readAllBytes(together.resolve("rank1.safetensors")));
  }

  @Test
  void aRankWithoutABatchKeepsItsReplicaIdentical(@TempDir Path tmp) throws Exception {
    run("idle", tmp, null);
    PolicyTrainerTest.assertSameWeights(replica(tmp, 0).tensors(), replica(tmp, 1).tensors(), 0);
    assertEquals("4", replica(tmp, 1).metadata().get("optimizer_steps"));
  }

  @Test
  void aLossThatIsNotFiniteOnOneRankStopsEveryRankAtTheSameStep(@TempDir Path tmp)
      throws Exception {
    for (Processes.Result r : finish(start("nan", tmp, null, 120, 0, 1))) {
      assertEquals(4, r.rc(), r.output());
      assertTrue(
          r.output().contains("the loss is not finite at optimizer step 3 on 1 of 2 rank(s)"),
          r.output());
    }
  }

  @Test
  void aRankThatNeverArrivesFailsEveryoneInBoundedTime(@TempDir Path tmp) throws Exception {
    long start = System.nanoTime();
    List<Processes.Result> alone0 = finish(start("train", tmp, null, 5, 0));
    List<Processes.Result> alone1 = finish(start("train", tmp, null, 5, 1));
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
    assertEquals(3, alone0.get(0).rc(), alone0.get(0).output());
    assertTrue(
        alone0.get(0).output().contains("rank 1 did not arrive within 5 s"),
        alone0.get(0).output());
    assertTrue(alone0.get(0).output().contains("rank 0 of 2"), alone0.get(0).output());
    assertEquals(3, alone1.get(0).rc(), alone1.get(0).output());
    assertTrue(
        alone1.get(0).output().contains("did not answer within 5 s"), alone1.get(0).output());
    assertTrue(seconds < 90, "both gave up in bounded time: " + seconds + " s");
  }
}
