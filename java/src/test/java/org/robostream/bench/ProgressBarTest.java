package org.robostream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/** The progress bar draws on a terminal and stays silent otherwise. */
class ProgressBarTest {
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
