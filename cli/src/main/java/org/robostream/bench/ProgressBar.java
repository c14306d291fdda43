package org.robostream.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal (never in logs or pipes).
 * Not thread-safe: one consumer thread updates it.
 */
public final class ProgressBar {
  private final PrintStream out;
  private final int total;
  private final boolean totalKnown;
  private final String unit;
  private final boolean enabled;
  private long lastDraw;

  public ProgressBar(int total) {
    this(total, "batches");
  }

  /** A bar counting {@code unit} ("batches", "files"); a total of 0: unknown, count only. */
  public ProgressBar(int total, String unit) {
    this(System.err, total, unit, isTerminal(Path.of("/proc/self/fd/2")));
  }

  ProgressBar(PrintStream out, int total, boolean enabled) {
    this(out, total, "batches", enabled);
  }

  ProgressBar(PrintStream out, int total, String unit, boolean enabled) {
    this.out = out;
    this.total = Math.max(1, total);
    this.totalKnown = total > 0;
    this.unit = unit;
    this.enabled = enabled;
  }

  /**
   * Whether the file descriptor behind {@code fdLink} (a /proc/self/fd entry) is a terminal. The
   * bar is drawn on stderr, so stderr is what counts: {@code System.console()} looks at stdin and
   * stdout, and would draw carriage returns into a log that only stderr goes to. Without /proc the
   * JDK's answer is the best there is.
   */
  static boolean isTerminal(Path fdLink) {
    try {
      String target = Files.readSymbolicLink(fdLink).toString();
      return target.startsWith("/dev/pts/")
          || target.startsWith("/dev/tty")
          || target.equals("/dev/console");
    } catch (IOException | UnsupportedOperationException e) {
      return System.console() != null;
    }
  }

  public void update(int done, String detail) {
    if (!enabled) {
      return;
    }
    long now = System.nanoTime();
    if ((!totalKnown || done < total) && now - lastDraw < 100_000_000L) {
      return;
    }
    lastDraw = now;
    if (!totalKnown) {
      out.print("\r" + done + " " + unit + " " + detail + "   ");
      return;
    }
    int width = 30;
    int filled = (int) ((long) width * Math.min(done, total) / total);
    out.print(
        "\r["
            + "#".repeat(filled)
            + " ".repeat(width - filled)
            + "] "
            + done
            + "/"
            + total
            + " "
            + unit
            + " "
            + detail
            + "   ");
    if (done >= total) {
      out.println();
    }
    out.flush();
  }
}
