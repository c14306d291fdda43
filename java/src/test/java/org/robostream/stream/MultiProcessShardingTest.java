package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;

/**
 * Ranks as separate JVM processes (rank and world from SLURM_PROCID / SLURM_NTASKS): together they
 * deliver every frame exactly once and the same number of batches each. Reported as skipped, never
 * passed, when the processes cannot be started.
 */
class MultiProcessShardingTest {
  @TempDir Path tmp;

  @Test
  void threeRankProcessesWithTwoWorkersEachCoverTheDatasetOnce() throws Exception {
    Path root = Datasets.patternV30();
    int world = 3;
    List<Process> processes = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    for (int r = 0; r < world; r++) {
      Path out = tmp.resolve("rank" + r + ".txt");
      outputs.add(out);
      ProcessBuilder pb =
          new ProcessBuilder(
                  java,
                  "-Xmx512m",
                  "--add-opens=java.base/java.nio=ALL-UNNAMED",
                  "-cp",
                  System.getProperty("java.class.path"),
                  RankProcess.class.getName(),
                  root.toString(),
                  "2",
                  out.toString())
              .redirectErrorStream(true)
              .redirectOutput(tmp.resolve("rank" + r + ".log").toFile());
      pb.environment().put("SLURM_PROCID", String.valueOf(r));
      pb.environment().put("SLURM_NTASKS", String.valueOf(world));
      try {
        processes.add(pb.start());
      } catch (java.io.IOException e) {
        processes.forEach(Process::destroyForcibly);
        Assumptions.abort("cannot start rank processes: " + e.getMessage());
      }
    }
    for (int r = 0; r < world; r++) {
      Process p = processes.get(r);
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        processes.forEach(Process::destroyForcibly);
        throw new AssertionError("rank " + r + " did not finish");
      }
      assertEquals(
          0,
          p.exitValue(),
          "rank " + r + ": " + Files.readString(tmp.resolve("rank" + r + ".log")));
    }
    Set<String> seen = new HashSet<>();
    int batches = -1;
    for (int r = 0; r < world; r++) {
      // A rank that started, exited 0 and wrote nothing (or stopped early) did not stream its
      // share: that fails, it is not a reason to skip.
      List<String> lines =
          Files.exists(outputs.get(r)) ? Files.readAllLines(outputs.get(r)) : List.of();
      String log = Files.readString(tmp.resolve("rank" + r + ".log"));
      assertTrue(
          lines.size() >= 2, "rank " + r + " exited 0 without its output: " + lines + "\n" + log);
      assertEquals("rank " + r + " of " + world + " from SLURM_PROCID/SLURM_NTASKS", lines.get(0));
      List<String> batchLines = lines.subList(1, lines.size() - 1);
      assertEquals(
          RankProcess.end(batchLines.size()),
          lines.get(lines.size() - 1),
          "rank " + r + " finished its epoch: " + log);
      assertTrue(!batchLines.isEmpty(), "rank " + r + " delivered no batch");
      if (batches >= 0) {
        assertEquals(batches, batchLines.size(), "same number of batches on every rank");
      }
      batches = batchLines.size();
      for (String line : batchLines) {
        String[] parts = line.split(" ");
        if (parts[0].equals("pad")) {
          continue;
        }
        for (int i = 1; i < parts.length; i++) {
          assertTrue(seen.add(parts[i]), "delivered twice: " + parts[i]);
        }
      }
    }
    assertEquals(StreamingDatasetTest.totalFrames(root), seen.size());
  }
}
