package org.robostream.video;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.testing.Fixtures;

/**
 * Mutates valid MP4s 500 ways each (truncations, byte flips, zeroed boxes, garbage) and decodes
 * every mutation in a forked JVM: each must give correct frames or a typed exception naming the
 * file; a JVM crash, an untyped exception or an error without the file name fails the test. After
 * a crash the worker is restarted behind the crashing case, so one crash does not hide others.
 */
class MutationFuzzTest {
  static final int CASES = 500;

  @TempDir Path work;

  @ParameterizedTest
  @ValueSource(strings = {"h264_g30.mp4", "av1_g2.mp4"})
  void mutatedFilesNeverCrashTheJvm(String seedName) throws Exception {
    Path seed = Fixtures.video(seedName);
    List<String> failures = new ArrayList<>();
    int ok = 0;
    int typed = 0;
    int next = 0;
    while (next < CASES) {
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx1g", "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
          "-cp", System.getProperty("java.class.path"), FuzzWorker.class.getName(),
          seed.toString(), work.toString(), Integer.toString(next), Integer.toString(CASES)));
      Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
      int started = -1;
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          if (line.startsWith("START ")) {
            started = Integer.parseInt(line.substring(6));
          } else if (line.startsWith("END ")) {
            String[] parts = line.split(" ", 4);
            int n = Integer.parseInt(parts[1]);
            String verdict = parts[3];
            if (verdict.equals("OK")) {
              ok++;
            } else if (verdict.startsWith("TYPED ")) {
              typed++;
            } else {
              failures.add("case " + n + " (" + parts[2] + "): " + verdict);
            }
            next = n + 1;
          }
        }
      }
      assertTrue(p.waitFor(5, TimeUnit.MINUTES), "fuzz worker hung");
      if (p.exitValue() != 0) {
        failures.add("case " + started + ": JVM died with exit code " + p.exitValue());
        next = started + 1;
      } else if (next < CASES) {
        failures.add("worker stopped early after case " + (next - 1));
        break;
      }
    }
    assertEquals(List.of(), failures, "mutations of " + seedName);
    assertEquals(CASES, ok + typed);
    assertTrue(typed > 50, "mutations must hit error paths: typed=" + typed + " ok=" + ok);
  }
}
