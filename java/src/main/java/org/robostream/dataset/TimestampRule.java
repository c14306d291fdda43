package org.robostream.dataset;

/**
 * What the data files' {@code timestamp} column may say, given that row {@code f} of an episode is
 * always shown with frame {@code f} of its video span (the rows and the frames are checked to pair
 * one to one when the dataset is opened; see docs/LOADER.md, "Which frame a row gets").
 */
public enum TimestampRule {
  /**
   * The default. Timestamps are information: rows stamped at {@code frame_index / fps}, one frame
   * late ({@code (frame_index + 1) / fps}, a writer stamping each frame's end) or at the times a
   * robot recorded them (drifting from either by more than half a frame, differently per row) all
   * stream, the {@code timestamp} column delivered as written; recorded timestamps are reported
   * once per dataset ({@link TimestampReport}). Only where frames must be looked up by time (a
   * video whose frame count is not its rows') do recorded timestamps leave the frame in doubt, and
   * that episode is refused when the dataset is opened.
   */
  POSITION,
  /**
   * Every row of an episode must keep one step, within half a frame: {@code frame_index / fps}, or
   * {@code (frame_index + 1) / fps} on every row (the one-frame-late convention is accepted). A
   * dataset with recorded timestamps is refused when it is opened, naming the first row that leaves
   * the step.
   */
  STRICT;

  /** The rule a flag or option value names ({@code position}, {@code strict}, any case). */
  public static TimestampRule parse(String value) {
    for (TimestampRule r : values()) {
      if (r.name().equalsIgnoreCase(value.strip())) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "timestamps must be position or strict, got \"" + value + "\"");
  }
}
