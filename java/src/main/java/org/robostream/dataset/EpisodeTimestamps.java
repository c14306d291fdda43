package org.robostream.dataset;

/**
 * What one episode's {@code timestamp} column says, read when the dataset is opened: which
 * convention every row keeps, and the row farthest from {@code frame_index / fps}. Immutable.
 *
 * @param episode the episode index
 * @param convention what every row of the episode keeps
 * @param maxDriftSeconds the largest {@code |timestamp - frame_index / fps|} over the episode's
 *     rows (0 without a timestamp column)
 * @param maxDriftRow the row (its frame index) of that largest drift
 * @param maxDriftTimestamp that row's timestamp in seconds
 * @param firstOffRow for recorded timestamps the first row that is more than half a frame from both
 *     {@code frame_index / fps} and {@code (frame_index + 1) / fps}, else the first that leaves the
 *     convention row 0 keeps (the row {@link TimestampRule#STRICT} names); -1 for the others
 */
public record EpisodeTimestamps(
    int episode,
    Convention convention,
    double maxDriftSeconds,
    int maxDriftRow,
    double maxDriftTimestamp,
    int firstOffRow) {

  /** The convention every row of an episode keeps. */
  public enum Convention {
    /** The data files have no timestamp column: rows are frames by position only. */
    NONE,
    /** Row f at {@code f / fps}, within half a frame (LeRobot's writers). */
    FRAME_START,
    /**
     * Row f at {@code (f + 1) / fps}, within half a frame, on every row (a writer stamping ends).
     */
    FRAME_END,
    /**
     * As a robot recorded them: not every row keeps one of the two steps above (a row more than
     * half a frame from both, or rows near one step and rows near the other).
     */
    RECORDED
  }

  /**
   * Whether the timestamps name the same frame as the row's position (every row within half a frame
   * of {@code frame_index / fps}): then looking a frame up by time finds the frame of the position.
   */
  public boolean agreesWithPosition() {
    return convention == Convention.NONE || convention == Convention.FRAME_START;
  }

  /**
   * Accumulates one episode's rows in order; {@link #result()} classifies them. Not thread-safe.
   */
  static final class Accumulator {
    private final int episode;
    private final double frame;
    private boolean start = true;
    private boolean end = true;
    private boolean any;
    private double maxDrift;
    private int maxRow;
    private double maxTimestamp;
    private int firstOff = -1;
    private int firstNotStart = -1;
    private int firstNotEnd = -1;
    private boolean rowZeroAtStart;

    Accumulator(int episode, int fps) {
      this.episode = episode;
      this.frame = 1.0 / fps;
    }

    /** Row {@code f} (the episode's f-th row) has {@code seconds}, a finite number. */
    void add(int f, double seconds) {
      any = true;
      double half = 0.5 * frame;
      double drift = seconds - f * frame;
      boolean nearStart = Math.abs(drift) < half;
      boolean nearEnd = Math.abs(seconds - (f + 1) * frame) < half;
      if (f == 0) {
        rowZeroAtStart = nearStart;
      }
      start &= nearStart;
      end &= nearEnd;
      if (!nearStart && !nearEnd && firstOff < 0) {
        firstOff = f;
      }
      if (!nearStart && firstNotStart < 0) {
        firstNotStart = f;
      }
      if (!nearEnd && firstNotEnd < 0) {
        firstNotEnd = f;
      }
      if (Math.abs(drift) > maxDrift) {
        maxDrift = Math.abs(drift);
        maxRow = f;
        maxTimestamp = seconds;
      }
    }

    EpisodeTimestamps result() {
      Convention c =
          !any
              ? Convention.NONE
              : start ? Convention.FRAME_START : end ? Convention.FRAME_END : Convention.RECORDED;
      int off = firstOff >= 0 ? firstOff : rowZeroAtStart ? firstNotStart : firstNotEnd;
      return new EpisodeTimestamps(
          episode, c, maxDrift, maxRow, maxTimestamp, c == Convention.RECORDED ? off : -1);
    }
  }
}
