package org.robostream.bench;

import java.io.PrintStream;

/**
 * A one-line progress bar on stderr, drawn only when the process has a terminal (never in logs
 * or pipes). Not thread-safe: one consumer thread updates it.
 */
public final class ProgressBar {
  private final PrintStream out;
  private final int total;
  private final boolean enabled;
  private long lastDraw;

  public ProgressBar(int total) {
    this(System.err, total, System.console() != null);
  }

  ProgressBar(PrintStream out, int total, boolean enabled) {
    this.out = out;
    this.total = Math.max(1, total);
    this.enabled = enabled;
  }

  public void update(int done, String detail) {
    if (!enabled) {
      return;
    }
    long now = System.nanoTime();
    if (done < total && now - lastDraw < 100_000_000L) {
      return;
    }
    lastDraw = now;
    int width = 30;
    int filled = (int) ((long) width * Math.min(done, total) / total);
    out.print("\r[" + "#".repeat(filled) + " ".repeat(width - filled) + "] " + done + "/" + total
        + " batches " + detail + "   ");
    if (done >= total) {
      out.println();
    }
    out.flush();
  }
}
