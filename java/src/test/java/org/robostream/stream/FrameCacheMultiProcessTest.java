package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.stream.FrameCacheRankProcess.Report;
import org.robostream.testing.Datasets;
import org.robostream.testing.Processes;

/**
 * The frame cache shared by the processes of a node ({@link FrameCacheRankProcess}, one JVM each,
 * one cache folder): ranks 0 and 1 of 2 over 3 epochs decode each frame once in total, and each
 * rank is served frames the other decoded; two jobs streaming the same frames at the same time into
 * one empty cache get every frame right with no checksum failure. Every delivered frame is checked
 * against the pattern painted into it. Reported as skipped, never passed, when the processes cannot
 * be started.
 *
 * <p>The dataset's episodes each start with a keyframe (each is encoded on its own) and a rank's
 * shuffle buffer holds all its samples, so a frame is never decoded as another rank's GOP lead-in
 * nor twice for one process's delivery order.
 */
class FrameCacheMultiProcessTest {
  private static final int CAMERAS = 2;
  private static final long EPOCH_TIMEOUT_SECONDS = 120;

  @TempDir Path tmp;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stopProcesses() {
    processes.forEach(Process::destroyForcibly);
  }

  /** A running rank process: commands in, reports out, everything else in its log. */
  private record Rank(Process process, Writer commands, BufferedReader reports, Path log) {
    /** Has the rank stream {@code epoch}; its report comes from {@link #report()}. */
    void start(int epoch) throws IOException {
      commands.write("epoch " + epoch + "\n");
      commands.flush();
    }

    Report report() throws Exception {
      CompletableFuture<String> line =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return reports.readLine();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      try {
        String l = line.get(EPOCH_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (l == null) {
          process.waitFor(10, TimeUnit.SECONDS);
          throw new AssertionError("the rank ended without its report: " + Files.readString(log));
        }
        return Report.parse(l);
      } catch (TimeoutException e) {
        throw new AssertionError("no report within " + EPOCH_TIMEOUT_SECONDS + " s: " + log);
      }
    }
  }

  /**
   * Two processes on one cache folder: ranks 0 and 1 of 2 ({@code world} 2), or two jobs of one
   * rank each ({@code world} 1), {@code bufferSize} samples in each shuffle buffer.
   */
  private List<Rank> startTwo(String name, int world, int bufferSize) throws IOException {
    Path root = Datasets.patternV30();
    Path cache = tmp.resolve("node-cache");
    List<Rank> two = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      two.add(start(name + i, world == 1 ? 0 : i, world, root, cache, bufferSize));
    }
    return two;
  }

  private Rank start(String name, int rank, int world, Path root, Path cache, int bufferSize)
      throws IOException {
    Path log = tmp.resolve(name + ".log");
    ProcessBuilder pb =
        new ProcessBuilder(
                Processes.javaMain(
                    FrameCacheRankProcess.class.getName(),
                    root.toString(),
                    cache.toString(),
                    "2",
                    String.valueOf(bufferSize)))
            .redirectError(log.toFile());
    pb.environment().put("SLURM_PROCID", String.valueOf(rank));
    pb.environment().put("SLURM_NTASKS", String.valueOf(world));
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      Assumptions.abort("cannot start rank processes: " + e.getMessage());
      throw e;
    }
    processes.add(p);
    return new Rank(
        p,
        new java.io.OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8),
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)),
        log);
  }

  /** Runs {@code epoch} in every rank at once; their reports in rank order. */
  private static List<Report> epoch(List<Rank> ranks, int epoch) throws Exception {
    for (Rank r : ranks) {
      r.start(epoch);
    }
    List<Report> reports = new ArrayList<>();
    for (Rank r : ranks) {
      Report report = r.report();
      assertEquals(epoch, report.epoch());
      assertEquals(0, report.checksumFailures(), "no checksum failure: " + report);
      assertNull(report.disabled(), "the cache kept working: " + report);
      reports.add(report);
    }
    return reports;
  }

  private static long decoded(List<Report> reports) {
    return reports.stream().mapToLong(Report::decoded).sum();
  }

  @Test
  void twoRanksOverThreeEpochsDecodeEachFrameOnceInTotal() throws Exception {
    int frames = StreamingDatasetTest.totalFrames(Datasets.patternV30());
    List<Rank> ranks = startTwo("rank", 2, frames);
    List<List<Report>> epochs = new ArrayList<>();
    for (int e = 0; e < 3; e++) {
      epochs.add(epoch(ranks, e));
    }
    for (List<Report> reports : epochs) {
      TreeSet<Integer> all = new TreeSet<>();
      reports.forEach(r -> all.addAll(r.episodes()));
      assertEquals(7, all.size(), "every episode delivered in every epoch: " + reports);
    }
    assertEquals(
        (long) frames * CAMERAS,
        decoded(epochs.get(2)),
        "each frame of each camera decoded once by the two processes over 3 epochs: " + epochs);
    assertEquals(decoded(epochs.get(0)), decoded(epochs.get(2)), "later epochs decode nothing");
    boolean servedFromTheOther = false;
    for (int r = 0; r < 2; r++) {
      TreeSet<Integer> decodedHere = epochs.get(0).get(r).episodes();
      for (int e = 1; e < 3; e++) {
        TreeSet<Integer> later = new TreeSet<>(epochs.get(e).get(r).episodes());
        later.removeAll(decodedHere);
        servedFromTheOther |= !later.isEmpty();
      }
      Report last = epochs.get(2).get(r);
      assertEquals(
          last.delivered() - epochs.get(0).get(r).delivered(),
          last.fromCache() - epochs.get(0).get(r).fromCache(),
          "rank " + r + " serves epochs 1 and 2 from the cache: " + epochs);
    }
    assertTrue(
        servedFromTheOther,
        "a rank delivered in a later epoch episodes the other rank decoded: " + epochs);
  }

  @Test
  void twoJobsFillingOneEmptyCacheAtOnceGetEveryFrameRight() throws Exception {
    int frames = StreamingDatasetTest.totalFrames(Datasets.patternV30());
    // Two jobs of one rank each on the node: both stream the same frames into the same slots.
    List<Rank> jobs = startTwo("job", 1, 40);
    List<Report> first = epoch(jobs, 0);
    List<Report> second = epoch(jobs, 1);
    for (int j = 0; j < 2; j++) {
      assertEquals(7, first.get(j).episodes().size(), "job " + j + ": " + first);
      assertTrue(
          first.get(j).decoded() <= (long) frames * CAMERAS,
          "job " + j + " decoded each frame at most once: " + first);
      assertEquals(
          first.get(j).decoded(), second.get(j).decoded(), "epoch 1 decodes nothing: " + second);
    }
  }
}
