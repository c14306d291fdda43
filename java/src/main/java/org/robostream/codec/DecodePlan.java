package org.robostream.codec;

import java.util.Arrays;
import org.robostream.video.FrameTimestampException;

/**
 * The frames one decode call needs from one file: every query resolved to its nearest frame (an
 * error when none lies within the tolerance), then sorted by presentation order and de-duplicated,
 * so a single forward pass serves each GOP once. Immutable after construction.
 */
final class DecodePlan {
  private final int[] targets; // distinct frame indices, ascending
  private final int[][] requestsOfTarget; // requests served by each target
  private final int requestCount;

  private DecodePlan(int[] targets, int[][] requestsOfTarget, int requestCount) {
    this.targets = targets;
    this.requestsOfTarget = requestsOfTarget;
    this.requestCount = requestCount;
  }

  static DecodePlan resolve(FrameIndex index, double[] queries, double tolerance, String file) {
    int n = queries.length;
    int[] frames = new int[n];
    for (int r = 0; r < n; r++) {
      double q = queries[r];
      if (Double.isNaN(q)) {
        throw new FrameTimestampException(file, q, index.frameSeconds(0), tolerance);
      }
      int frame = index.nearestFrame(q);
      double pts = index.frameSeconds(frame);
      if (!(Math.abs(pts - q) <= tolerance)) {
        throw new FrameTimestampException(file, q, pts, tolerance);
      }
      frames[r] = frame;
    }
    return group(frames);
  }

  /** A plan for requests given as presentation frame indices (position addressing). */
  static DecodePlan ofFrames(FrameIndex index, int[] frames, String file) {
    for (int frame : frames) {
      if (frame < 0 || frame >= index.frameCount()) {
        throw new IllegalArgumentException(
            "frame " + frame + " is outside 0.." + (index.frameCount() - 1) + " of " + file);
      }
    }
    return group(frames);
  }

  private static DecodePlan group(int[] frameOfRequest) {
    int n = frameOfRequest.length;
    long[] keyed = new long[n];
    for (int r = 0; r < n; r++) {
      // Sort requests by frame, keeping the request number: frame in the high bits.
      keyed[r] = ((long) frameOfRequest[r] << 32) | r;
    }
    Arrays.sort(keyed);
    int[] targets = new int[n];
    int[][] requests = new int[n][];
    int t = -1;
    int i = 0;
    while (i < n) {
      int frame = (int) (keyed[i] >>> 32);
      int j = i;
      while (j < n && (int) (keyed[j] >>> 32) == frame) {
        j++;
      }
      int[] group = new int[j - i];
      for (int k = i; k < j; k++) {
        group[k - i] = (int) keyed[k];
      }
      targets[++t] = frame;
      requests[t] = group;
      i = j;
    }
    return new DecodePlan(Arrays.copyOf(targets, t + 1), Arrays.copyOf(requests, t + 1), n);
  }

  int targetCount() {
    return targets.length;
  }

  int requestCount() {
    return requestCount;
  }

  int target(int t) {
    return targets[t];
  }

  int[] requestsOf(int t) {
    return requestsOfTarget[t];
  }

  /** Position of {@code frame} among the targets, or -1. */
  int targetPosition(int frame) {
    int i = Arrays.binarySearch(targets, frame);
    return i >= 0 ? i : -1;
  }
}
