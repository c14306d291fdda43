package org.robostream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Processes;

/**
 * The progress bar draws when stderr is a terminal and stays silent otherwise, whatever stdout is.
 * Terminals come from util-linux's {@code script}, which runs a command on a pseudo-terminal.
 */
class ProgressBarTest {
  @TempDir Path tmp;

  /** Runs the probe under {@code script} with {@code redirect} appended to its command line. */
  static String onTerminal(String redirect) throws Exception {
    String probe =
        String.join(
            " ",
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                "'" + System.getProperty("java.class.path") + "'",
                ProgressBarProbe.class.getName()));
    Processes.Result r =
        Processes.run(Map.of(), 60, "script", "-qec", probe + " " + redirect, "/dev/null");
    assertEquals(0, r.rc(), r.output());
    assertTrue(r.output().contains("probe done"), r.output());
    return r.output();
  }

  @Test
  void stderrDecidesWhetherTheBarIsDrawn() throws Exception {
    assertTrue(onTerminal("").contains("3/3 batches"), "stderr on a terminal: drawn");
    Path log = tmp.resolve("stderr.log");
    onTerminal("2>" + log);
    assertEquals("", Files.readString(log), "stdout on a terminal, stderr in a log: silent");
    Processes.Result piped =
        Processes.run(
            Map.of(),
            60,
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            ProgressBarProbe.class.getName());
    assertFalse(piped.output().contains("batches"), piped.output());
    Path fd = Files.createSymbolicLink(tmp.resolve("fd2"), log);
    assertFalse(ProgressBar.isTerminal(fd), "a file is not a terminal");
    Path pts = Files.createSymbolicLink(tmp.resolve("fd2-pts"), Path.of("/dev/pts/7"));
    assertTrue(ProgressBar.isTerminal(pts), "a pseudo-terminal is");
  }

  @Test
  void drawsOnlyWhenEnabled() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar = new ProgressBar(new PrintStream(bytes, true), 10, true);
    bar.update(10, "");
    String out = bytes.toString();
    assertTrue(out.contains("[" + "#".repeat(30) + "] 10/10 batches"), out);
    assertTrue(out.endsWith("\n"), "a finished bar ends its line");
    ByteArrayOutputStream silent = new ByteArrayOutputStream();
    new ProgressBar(new PrintStream(silent, true), 10, false).update(10, "");
    assertEquals(0, silent.size());
  }
}
