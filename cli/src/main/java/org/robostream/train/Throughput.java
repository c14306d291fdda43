package org.robostream.train;

import java.util.Locale;

/**
 * The training log's throughput over the window since the last log line, in the benchmark's unit: a
 * frame is one sample (one timestep with all its cameras), so these numbers compare with {@code
 * robostream bench}'s frames_per_s_node. Total = per process x world size (every rank yields the
 * same number of batches per epoch). Not thread-safe: the training loop owns it.
 */
public final class Throughput {
  private long windowStart = System.nanoTime();
  private long samples;

  public void add(int batchSamples) {
    samples += batchSamples;
  }

  /**
   * {@code step N | X frames/s/proc | Y frames/s total[ | loss L]} for the window that ends now,
   * then starts the next window.
   *
   * @param loss the last step's loss, or NaN when no model trains (--dummy)
   */
  public String line(int step, int world, double loss) {
    long now = System.nanoTime();
    double perProc = samples / ((now - windowStart) / 1e9);
    windowStart = now;
    samples = 0;
    return String.format(
        Locale.ROOT,
        "step %d | %.1f frames/s/proc | %.1f frames/s total%s",
        step,
        perProc,
        perProc * world,
        Double.isNaN(loss) ? "" : String.format(Locale.ROOT, " | loss %.6f", loss));
  }
}
