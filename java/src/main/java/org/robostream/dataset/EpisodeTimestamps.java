package org.robostream.dataset;

/**
 * What one episode's {@code timestamp} column says, read when the dataset is opened. Immutable.
 *
 * @param episode the episode index
 * @param convention what every row of the episode keeps
 * @param maxDriftSeconds the largest {@code |timestamp - frame_index / fps|} (0 without timestamps)
 * @param maxDriftRow the row (its frame index) of that largest drift
 * @param maxDriftTimestamp that row's timestamp in seconds
 * @param firstOffRow the first row that makes the convention {@link Convention#RECORDED}, else -1
 * @param beyondTolerance the first row {@link TimestampRule#STRICT} refuses, or {@link Row#NONE}
 * @param lerobot the frames LeRobot's rule (nearest each row's timestamp) picks instead
 */
public record EpisodeTimestamps(
    int episode,
    Convention convention,
    double maxDriftSeconds,
    int maxDriftRow,
    double maxDriftTimestamp,
    int firstOffRow,
    Row beyondTolerance,
    LeRobotChoice lerobot) {

  /**
   * One row of the episode and its timestamp.
   *
   * @param row the row (its frame index), -1 for none
   * @param timestamp its timestamp in seconds
   */
  public record Row(int row, double timestamp) {
    /** No row. */
    public static final Row NONE = new Row(-1, 0);

    public boolean present() {
      return row >= 0;
    }
  }

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
   * Where the frame nearest each row's timestamp lies against the row's own frame, counted on the
   * declared frame rate (frame k at {@code k / fps}). This is the frame LeRobot shows for the row;
   * robostream's default shows the row's own. The video's real pts are compared only when frames
   * are picked by time ({@link TimestampRule#LEROBOT}).
   *
   * @param rowsElsewhere rows whose nearest frame is not their own
   * @param rowsOutside of those, rows whose nearest frame is outside the episode (before its first
   *     frame or past its last): LeRobot fails there, or shows another episode's frame
   * @param maxOffset the largest distance, in frames, from a row's own frame to its nearest frame
   *     (signed: positive when the nearest frame is later)
   * @param maxOffsetRow the row of that largest distance (-1 when every row names its own frame)
   * @param maxOffsetTimestamp that row's timestamp in seconds
   */
  public record LeRobotChoice(
      int rowsElsewhere,
      int rowsOutside,
      int maxOffset,
      int maxOffsetRow,
      double maxOffsetTimestamp) {
    /** Every row names its own frame. */
    public static final LeRobotChoice SAME = new LeRobotChoice(0, 0, 0, -1, 0);

    /** Whether LeRobot's rule picks the row's own frame on every row. */
    public boolean same() {
      return rowsElsewhere == 0;
    }
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
    private final int fps;
    private final double frame;
    private final int length;
    private final double tolerance;
    private final double[] rows; // null: not kept
    private boolean start = true;
    private boolean end = true;
    private boolean any;
    private double maxDrift;
    private int maxRow;
    private double maxTimestamp;
    private int firstOff = -1;
    private int firstNotStart = -1;
    private int firstNotEnd = -1;
    private Row beyondTolerance = Row.NONE;
    private boolean rowZeroAtStart;
    private int elsewhere;
    private int outside;
    private int maxOffset;
    private int maxOffsetRow = -1;
    private double maxOffsetTimestamp;

    /**
     * @param length the episode's rows: a nearest frame past them is outside the episode
     * @param tolerance how far a row's timestamp may be from {@code frame_index / fps} before
     *     {@link TimestampRule#STRICT} names it
     * @param keepRows whether to keep every row's timestamp ({@link #rows()})
     */
    Accumulator(int episode, int fps, int length, double tolerance, boolean keepRows) {
      this.episode = episode;
      this.fps = fps;
      this.frame = 1.0 / fps;
      this.length = length;
      this.tolerance = tolerance;
      this.rows = keepRows ? new double[length] : null;
    }

    /** Row {@code f} (the episode's f-th row, below its length) has {@code seconds}, finite. */
    void add(int f, double seconds) {
      any = true;
      if (rows != null) {
        rows[f] = seconds;
      }
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
      if (!(Math.abs(drift) < tolerance) && !beyondTolerance.present()) {
        beyondTolerance = new Row(f, seconds);
      }
      if (Math.abs(drift) > maxDrift) {
        maxDrift = Math.abs(drift);
        maxRow = f;
        maxTimestamp = seconds;
      }
      addNearest(f, seconds);
    }

    /** Where the frame nearest {@code seconds} is (ties: the earlier, as LeRobot's argmin). */
    private void addNearest(int f, double seconds) {
      long k = (long) Math.ceil(seconds * fps - 0.5);
      if (k == f) {
        return;
      }
      elsewhere++;
      if (k < 0 || k >= length) {
        outside++;
      }
      long offset = k - f;
      if (Math.abs(offset) > Math.abs(maxOffset)) {
        maxOffset = (int) Math.max(Integer.MIN_VALUE + 1, Math.min(Integer.MAX_VALUE, offset));
        maxOffsetRow = f;
        maxOffsetTimestamp = seconds;
      }
    }

    /** Every row's timestamp, by row; null unless kept. */
    double[] rows() {
      return rows;
    }

    EpisodeTimestamps result() {
      Convention c =
          !any
              ? Convention.NONE
              : start ? Convention.FRAME_START : end ? Convention.FRAME_END : Convention.RECORDED;
      int off = firstOff >= 0 ? firstOff : rowZeroAtStart ? firstNotStart : firstNotEnd;
      LeRobotChoice lerobot =
          elsewhere == 0
              ? LeRobotChoice.SAME
              : new LeRobotChoice(elsewhere, outside, maxOffset, maxOffsetRow, maxOffsetTimestamp);
      return new EpisodeTimestamps(
          episode,
          c,
          maxDrift,
          maxRow,
          maxTimestamp,
          c == Convention.RECORDED ? off : -1,
          beyondTolerance,
          lerobot);
    }
  }
}
