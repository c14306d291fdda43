package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;

/**
 * robostream train as separate JVM processes: two ranks (SLURM environment) cover an epoch
 * disjointly; a run halted mid-epoch resumes from its last checkpoint and the epoch is delivered
 * exactly once. Skipped, never passed, when the processes cannot be started.
 */
class TrainCliTest {
  @TempDir Path tmp;

  static final int FRAMES = Datasets.totalFrames(Datasets.patternV30());

  private Process start(Map<String, String> env, Path log, String... args) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "train", "--root", Datasets.patternV30().toString(),
        "--batch-size", "6", "--buffer-size", "20", "--n-action-steps", "3", "--log-freq", "5"));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    pb.environment().remove("SLURM_PROCID");
    pb.environment().remove("SLURM_NTASKS");
    pb.environment().putAll(env);
    try {
      return pb.start();
    } catch (java.io.IOException e) {
      Assumptions.abort("cannot start a training process: " + e.getMessage());
      return null;
    }
  }

  private static int finish(Process p, Path log) throws Exception {
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("training process did not finish: " + Files.readString(log));
    }
    return p.exitValue();
  }

  /** "step index" lines → indices, with steps ≤ maxStep. */
  private static List<Long> indices(Path file, int maxStep) throws Exception {
    List<Long> out = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      String[] p = line.split(" ");
      if (Integer.parseInt(p[0]) <= maxStep) {
        out.add(Long.parseLong(p[1]));
      }
    }
    return out;
  }

  @Test
  void twoRankProcessesCoverAnEpochDisjointly() throws Exception {
    List<Process> ranks = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      ranks.add(start(Map.of("SLURM_PROCID", "" + r, "SLURM_NTASKS", "2"),
          tmp.resolve("rank" + r + ".log"), "--dummy", "--epochs", "1", "--steps", "100000",
          "--num-workers", "2", "--record-indices", tmp.resolve("rank" + r + ".txt").toString(),
          "--output-dir", tmp.resolve("out").toString(), "--save-freq", "1000"));
    }
    Set<Long> seen = new HashSet<>();
    for (int r = 0; r < 2; r++) {
      Path log = tmp.resolve("rank" + r + ".log");
      assertEquals(0, finish(ranks.get(r), log), Files.readString(log));
      assertTrue(Files.readString(log).contains("rank " + r + " of 2 (SLURM_PROCID/SLURM_NTASKS)"));
      assertTrue(Files.readString(log).contains("frames/s total"), "throughput logged");
      for (long index : indices(tmp.resolve("rank" + r + ".txt"), Integer.MAX_VALUE)) {
        assertTrue(seen.add(index), "index " + index + " on both ranks or twice");
      }
    }
    assertEquals(FRAMES, seen.size(), "the two ranks together cover the epoch");
  }

  @Test
  void aHaltedRunResumesFromItsLastCheckpointExactlyOnce() throws Exception {
    Path out = tmp.resolve("out");
    Path first = tmp.resolve("first.txt");
    Path log1 = tmp.resolve("first.log");
    Process crash = start(Map.of(), log1, "--epochs", "1", "--steps", "100000",
        "--save-freq", "5", "--halt-after-step", "12", "--record-indices", first.toString(),
        "--output-dir", out.toString());
    assertEquals(137, finish(crash, log1), "halted abruptly: " + Files.readString(log1));
    assertTrue(Files.isRegularFile(out.resolve("checkpoint-10/rank0/dataset_state.json")));
    assertTrue(Files.isRegularFile(out.resolve("checkpoint-10/policy.json")));
    Path second = tmp.resolve("second.txt");
    Path log2 = tmp.resolve("second.log");
    Process resume = start(Map.of(), log2, "--epochs", "1", "--steps", "100000",
        "--save-freq", "5", "--resume-from", out.resolve("checkpoint-10").toString(),
        "--record-indices", second.toString(), "--output-dir", out.toString());
    assertEquals(0, finish(resume, log2), Files.readString(log2));
    assertTrue(Files.readString(log2).contains("starting at step 10"), Files.readString(log2));
    List<Long> all = new ArrayList<>(indices(first, 10));
    all.addAll(indices(second, Integer.MAX_VALUE));
    assertEquals(FRAMES, all.size(), "nothing lost, nothing repeated");
    assertEquals(FRAMES, new HashSet<>(all).size());
  }
}
