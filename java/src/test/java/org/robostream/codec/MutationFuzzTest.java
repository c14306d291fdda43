package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;

/**
 * Mutates valid MP4s 500 ways each (truncations, bit flips, zeroed boxes, random blocks) and
 * decodes every mutation in a forked JVM running with -Xcheck:jni. Each requested frame must come
 * back with the requested pts and the seed's size, and as the seed's frame (pattern number and
 * pixels, against the ffmpeg CLI) unless the mutation changed the index or a packet the frame
 * depends on ({@link FuzzJudge}); otherwise the call must fail with a typed exception naming the
 * file. A JVM crash, an untyped exception, a JNI warning or a wrong frame fails the test. After a
 * crash the worker restarts behind the crashing case, so one crash does not hide others.
 *
 * <p>Seeds: moov at the end (ffmpeg's default: a truncation loses the index) and moved to the front
 * with +faststart (LeRobot's layout: a truncation loses payload, a zeroed mdat header leaves the
 * file decodable), H.264 with B-frames and AV1 through dav1d.
 *
 * <p>A longer campaign, outside the test command: {@code -Drobostream.fuzz.cases=N} (default 500)
 * cases from {@code -Drobostream.fuzz.first=K} (default 0) on; each case number is its own
 * mutation.
 */
class MutationFuzzTest {
  static final int CASES = Integer.getInteger("robostream.fuzz.cases", 500);
  static final int FIRST = Integer.getInteger("robostream.fuzz.first", 0);

  @TempDir Path work;

  @ParameterizedTest
  @ValueSource(
      strings = {"h264_g30.mp4", "av1_g2.mp4", "h264_g30_faststart.mp4", "av1_g2_faststart.mp4"})
  void mutatedFilesGiveTheRightFramesOrTypedErrors(String seedName) throws Exception {
    Path seed = Fixtures.video(seedName);
    SeedLayout layout = SeedLayout.of(seed);
    Path reference = work.resolve("reference.rgb");
    Files.write(reference, FfmpegReference.allFramesRgb(seed));
    Path pts = work.resolve("pts.txt");
    Files.write(pts, Arrays.stream(layout.framePts()).mapToObj(Double::toString).toList());
    assertEquals(
        layout.frameCount() * layout.width() * layout.height() * 3,
        Files.size(reference),
        "ffmpeg CLI and ffprobe disagree on the seed's frames");

    Campaign campaign =
        new Campaign(seed, Files.readAllBytes(seed), reference, pts, new FuzzJudge(layout));
    // Two workers, one per core: the cases are independent.
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<Run>> halves;
    try {
      halves =
          List.of(
              pool.submit(() -> campaign.run(FIRST, FIRST + CASES / 2, "a")),
              pool.submit(() -> campaign.run(FIRST + CASES / 2, FIRST + CASES, "b")));
    } finally {
      pool.shutdown();
    }
    Tally tally = new Tally();
    List<String> failures = new ArrayList<>();
    for (Future<Run> half : halves) {
      Run run = half.get(10, TimeUnit.MINUTES);
      run.verdicts().forEach(tally::add);
      failures.addAll(run.failures());
    }
    System.out.println("mutations of " + seedName + ":\n" + tally);
    assertEquals(List.of(), failures, "mutations of " + seedName);
    assertEquals(CASES, tally.cases(), "cases judged");
    // Both outcomes must be exercised, or the checks above prove little.
    assertTrue(tally.typed() >= 50, "mutations must reach the error paths:\n" + tally);
    assertTrue(
        tally.exact("payload") >= 100,
        "frames outside the damaged GOPs of mutated files must be checked:\n" + tally);
    assertTrue(
        tally.exact("inert") >= 20,
        "files with only inert bytes changed must be checked:\n" + tally);
  }

  private record Run(List<FuzzJudge.Verdict> verdicts, List<String> failures) {}

  /** One seed's fuzzing: forks workers over a range of cases and judges what they report. */
  private final class Campaign {
    private final Path seed;
    private final byte[] seedBytes;
    private final Path reference;
    private final Path pts;
    private final FuzzJudge judge;

    Campaign(Path seed, byte[] seedBytes, Path reference, Path pts, FuzzJudge judge) {
      this.seed = seed;
      this.seedBytes = seedBytes;
      this.reference = reference;
      this.pts = pts;
      this.judge = judge;
    }

    /** Cases [from, to); a worker that dies is restarted behind the case it died in. */
    Run run(int from, int to, String tag) throws IOException, InterruptedException {
      List<FuzzJudge.Verdict> verdicts = new ArrayList<>();
      List<String> failures = new ArrayList<>();
      int next = from;
      for (int restart = 0; next < to; restart++) {
        Path stderr = work.resolve("worker-" + tag + restart + ".err");
        Process p =
            new ProcessBuilder(workerCommand(next, to)).redirectError(stderr.toFile()).start();
        int started = -1;
        try (BufferedReader r =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line = r.readLine(); line != null; line = r.readLine()) {
            if (line.startsWith("START ")) {
              started = Integer.parseInt(line.substring(6));
            } else if (line.startsWith("CASE ")) {
              FuzzObservation seen = FuzzObservation.fromJson(line.substring(5));
              Mutations.Mutation mutation = Mutations.mutate(seedBytes, seen.caseNumber());
              FuzzJudge.Verdict verdict =
                  judge.judge(mutation, ByteChanges.between(seedBytes, mutation.bytes()), seen);
              failures.addAll(verdict.failures());
              verdicts.add(verdict);
              next = seen.caseNumber() + 1;
            }
          }
        }
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
          p.destroyForcibly();
          failures.add("fuzz worker hung after case " + started);
          break;
        }
        failures.addAll(jniComplaints(stderr));
        if (p.exitValue() != 0 && started < next) {
          failures.add(
              "worker exited with code "
                  + p.exitValue()
                  + " before case "
                  + next
                  + ", see "
                  + stderr);
          break;
        } else if (p.exitValue() != 0) {
          failures.add("case " + started + ": JVM died with exit code " + p.exitValue());
          next = started + 1;
        } else if (next < to) {
          failures.add("worker stopped early after case " + (next - 1));
          break;
        }
      }
      return new Run(verdicts, failures);
    }

    private List<String> workerCommand(int from, int to) {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(
          List.of(
              "-Xcheck:jni",
              "-Xmx512m",
              "--add-opens=java.base/java.nio=ALL-UNNAMED",
              "-Dorg.slf4j.simpleLogger.defaultLogLevel=error"));
      // JavaCPP's settings go along, so that under scripts/sanitize.sh (which sets them, and
      // whose sanitizer runtimes the children inherit through LD_PRELOAD) the workers load the
      // sanitized core too.
      System.getProperties().stringPropertyNames().stream()
          .filter(name -> name.startsWith("org.bytedeco.javacpp."))
          .sorted()
          .forEach(name -> command.add("-D" + name + "=" + System.getProperty(name)));
      command.addAll(
          List.of(
              "-cp",
              System.getProperty("java.class.path"),
              FuzzWorker.class.getName(),
              seed.toString(),
              reference.toString(),
              pts.toString(),
              work.toString(),
              Integer.toString(from),
              Integer.toString(to)));
      return command;
    }
  }

  /**
   * -Xcheck:jni reports misuse on stderr and goes on ("WARNING in native method: ...", "WARNING:
   * JNI local refs: ...") or aborts ("FATAL ERROR in native method"); FFmpeg's own complaints about
   * the damaged input go there too and are expected.
   */
  private static List<String> jniComplaints(Path stderr) throws IOException {
    return Files.readAllLines(stderr).stream()
        .filter(l -> l.contains("in native method") || l.contains("JNI"))
        .distinct()
        .map(l -> "JNI check: " + l)
        .toList();
  }

  /** Counts per changed region: cases, cases failing at open, and requested-frame outcomes. */
  private static final class Tally {
    private final Map<String, long[]> byRegion = new TreeMap<>();

    void add(FuzzJudge.Verdict v) {
      long[] row = byRegion.computeIfAbsent(v.region(), k -> new long[5]);
      row[0]++;
      if (v.openFailed()) {
        row[1]++;
      }
      for (FuzzJudge.Outcome o : v.outcomes()) {
        row[2 + o.ordinal()]++;
      }
    }

    long cases() {
      return column(0);
    }

    long typed() {
      return column(1) + column(2 + FuzzJudge.Outcome.TYPED.ordinal());
    }

    long exact(String region) {
      long[] row = byRegion.get(region);
      return row == null ? 0 : row[2 + FuzzJudge.Outcome.EXACT.ordinal()];
    }

    private long column(int c) {
      return byRegion.values().stream().mapToLong(row -> row[c]).sum();
    }

    @Override
    public String toString() {
      return String.format(
              "  %-22s %6s %14s %14s %14s %14s%n",
              "changed", "cases", "typed at open", "frames: typed", "exact", "damaged")
          + byRegion.entrySet().stream()
              .map(
                  e ->
                      String.format(
                          "  %-22s %6d %14d %14d %14d %14d",
                          e.getKey(),
                          e.getValue()[0],
                          e.getValue()[1],
                          e.getValue()[2],
                          e.getValue()[3],
                          e.getValue()[4]))
              .collect(Collectors.joining("\n"));
    }
  }
}
