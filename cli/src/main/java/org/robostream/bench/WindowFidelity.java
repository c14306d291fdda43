package org.robostream.bench;

import java.util.Locale;

/**
 * Whether a measured window timed decoding or a buffer: the share of the samples delivered in the
 * window whose frames were decoded inside it (samples decoded in the window / samples delivered in
 * it, at most 1). A loader in its steady state decodes a sample for each one it delivers (share 1).
 * A window that drains samples decoded before it began delivers them at memory speed (a dataset
 * smaller than the shuffle buffer, which is decoded whole before the first batch; a window shorter
 * than the buffer), and its frames/s say nothing about decoding. A sample whose frames the frame
 * cache served inside the window counts as fetched in it, not as drained from the buffer: the
 * window timed the cache, which its served frames/s (apart from its decoded frames/s) say. Below
 * {@link #THRESHOLD} a window is flagged as served from memory: then over a tenth of what it
 * delivered was decoded before it, so its delivered rate may exceed the decode rate by more than
 * that. Immutable.
 */
public record WindowFidelity(double decodedShare, boolean servedFromMemory) {
  public static final double THRESHOLD = 0.9;

  public static WindowFidelity of(long samplesDecoded, long samplesDelivered) {
    double share =
        samplesDelivered <= 0 ? 0 : Math.min(1.0, samplesDecoded / (double) samplesDelivered);
    return new WindowFidelity(share, share < THRESHOLD);
  }

  /**
   * The warning for a flagged window: {@code what} names the window's rate, {@code remedy} says how
   * to measure decoding instead.
   */
  public String warning(String what, String remedy) {
    return String.format(
        Locale.ROOT,
        "WARN: %s was served from memory: only %.0f%% of its"
            + " samples were decoded inside it (threshold %.0f%%), the rest before it began, so it"
            + " measures delivery from the shuffle buffer, not decoding. %s",
        what,
        100 * decodedShare,
        100 * THRESHOLD,
        remedy);
  }
}
