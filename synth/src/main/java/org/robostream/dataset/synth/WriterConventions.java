package org.robostream.dataset.synth;

/**
 * How a generated dataset's writer records what the frames are, beyond LeRobot's own conventions:
 * the twins of real datasets that stream the same frames but write their tables differently.
 * Immutable.
 *
 * @param rowTimestamps what each row's {@code timestamp} holds
 * @param toTimestamp what a v3.0 episodes table's {@code videos/<camera>/to_timestamp} marks
 * @param vectorsAsFloat64 store {@code action} and {@code observation.state} as float64 lists while
 *     info.json declares float32 (a v2.1 dataset seen in the wild; LeRobot casts on read)
 */
public record WriterConventions(
    RowTimestamps rowTimestamps, ToTimestamp toTimestamp, boolean vectorsAsFloat64) {

  /** LeRobot's writers: rows at {@code frame_index / fps}, to_timestamp the end, float32. */
  public static final WriterConventions LEROBOT =
      new WriterConventions(RowTimestamps.FRAME_START, ToTimestamp.END, false);

  /** What a row's timestamp holds. */
  public enum RowTimestamps {
    /** {@code frame_index / fps} (LeRobot). */
    FRAME_START,
    /** {@code (frame_index + 1) / fps}: each frame's end (GR00T's demo data). */
    FRAME_END,
    /**
     * Wall-clock capture times, as a robot records them (cr5-v21-sample): the first row a few tens
     * of milliseconds in, then intervals of 0.6 to 1.5 frames, so rows drift from {@code
     * frame_index / fps} by more than half a frame, differently per row; deterministic per
     * (episode, frame). The video still holds one frame per row at a constant rate.
     */
    RECORDED
  }

  /** What to_timestamp marks. */
  public enum ToTimestamp {
    /** {@code from_timestamp + length / fps}: where the episode ends (LeRobot). */
    END,
    /** {@code from_timestamp + (length - 1) / fps}: the last frame's time. */
    LAST_FRAME
  }

  public WriterConventions {
    if (rowTimestamps == null || toTimestamp == null) {
      throw new IllegalArgumentException("row timestamps and to_timestamp must be given");
    }
  }

  public WriterConventions withRowTimestamps(RowTimestamps t) {
    return new WriterConventions(t, toTimestamp, vectorsAsFloat64);
  }

  public WriterConventions withToTimestamp(ToTimestamp t) {
    return new WriterConventions(rowTimestamps, t, vectorsAsFloat64);
  }

  public WriterConventions withVectorsAsFloat64(boolean f) {
    return new WriterConventions(rowTimestamps, toTimestamp, f);
  }

  /** The timestamp row {@code f} of episode {@code e} holds, in seconds. */
  public double rowTimestamp(int e, int f, int fps) {
    double frame = 1.0 / fps;
    return switch (rowTimestamps) {
      case FRAME_START -> f * frame;
      case FRAME_END -> (f + 1) * frame;
      case RECORDED -> {
        // t(0) = 0.02..0.06 s; each interval 0.6..1.5 frames. Summed in order, so a row's drift
        // is the sum of the intervals' before it: differently per row, growing and shrinking.
        double t = 0.02 + 0.04 * unit(e, -1);
        for (int k = 1; k <= f; k++) {
          t += frame * (0.6 + 0.9 * unit(e, k));
        }
        yield t;
      }
    };
  }

  /** A deterministic number in [0, 1) for (episode, frame). */
  private static double unit(int e, int f) {
    long z = 0x9E3779B97F4A7C15L * (e * 1_000_003L + f + 17);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return (z >>> 11) * 0x1.0p-53;
  }

  /** What a v3.0 episode's to_timestamp is, given where it starts and how long it lasts. */
  public double toTimestamp(double from, double duration, int fps) {
    return toTimestamp == ToTimestamp.END ? from + duration : from + duration - 1.0 / fps;
  }
}
