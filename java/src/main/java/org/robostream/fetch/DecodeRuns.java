package org.robostream.fetch;

import java.util.function.IntPredicate;

/**
 * Chooses how many of a stream's next frames one decode call covers: at least {@code min} frames,
 * then on until the next frame starts a new GOP (so the stream's next call starts on a keyframe
 * and, on a decoder that seeks at every call, decodes nothing twice), never more than {@code max};
 * always stopping before a frame that is already decoded or does not fit the memory budget.
 * Stateless.
 */
public final class DecodeRuns {
  private DecodeRuns() {}

  /**
   * The number of frames, starting at {@code frames[at]}, of the run.
   *
   * @param frames the stream's frame numbers in order
   * @param available whether the i-th frame of the run (0-based) may join it: not decoded yet and
   *     within the budget with the i frames before it
   * @param startsGop whether a frame number starts a new GOP (asked only past {@code min})
   */
  public static int length(
      int[] frames, int at, int min, int max, IntPredicate available, IntPredicate startsGop) {
    int n = 0;
    for (int i = at; i < frames.length && n < max; i++) {
      if (!available.test(n) || (n >= min && startsGop.test(frames[i]))) {
        break;
      }
      n++;
    }
    return n;
  }
}
