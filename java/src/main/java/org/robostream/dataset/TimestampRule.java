package org.robostream.dataset;

/**
 * Which frame of its video each row of an episode gets (docs/DATASETS.md, "Which frame a row
 * gets"). LeRobot picks a row's frame by the row's {@code timestamp}; robostream by default by the
 * row's position. Both give the same frames when rows are stamped at {@code frame_index / fps}.
 * Image features hold their frame in the row itself: no rule moves them.
 */
public enum TimestampRule {
  /**
   * The default: row k of an episode shows frame k of the episode in the camera's video, whatever
   * its timestamp says. Rows stamped one frame late ({@code (frame_index + 1) / fps}, GR00T's demo
   * data) or at the times a robot recorded them stream, the {@code timestamp} column delivered as
   * written. Where this gives other frames than LeRobot's rule, one warning says so when the
   * dataset is opened ({@link TimestampReport#warnings()}). Where frames can only be looked up by
   * time (a video whose frame count is not its rows'), an episode whose timestamps are not at
   * {@code frame_index / fps} is refused: its frames would be in doubt.
   */
  POSITION,
  /**
   * Position, checked: every kept row's timestamp must be its frame's time, {@code frame_index /
   * fps}, within the tolerance ({@code toleranceSeconds}), so position and timestamp name the same
   * frame. Rows one frame late or as recorded are refused when the dataset is opened, naming the
   * first such row and the rules that let it through.
   */
  STRICT,
  /**
   * LeRobot's rule: a row's frame is the frame of the camera's video nearest {@code from_timestamp
   * + timestamp}; a window position shows the frame of the row it reads (clamped to the episode, as
   * LeRobot clamps it). A kept row with no frame within the tolerance (where LeRobot fails), or
   * whose nearest frame is another episode's, refuses the dataset when it is opened; for videos
   * read from the Hub, when the file's first episode is read. Keeps every kept row's timestamp in
   * memory (8 bytes a row).
   */
  LEROBOT;

  /** The rule a flag or option value names ({@code position}, {@code strict}, {@code lerobot}). */
  public static TimestampRule parse(String value) {
    for (TimestampRule r : values()) {
      if (r.name().equalsIgnoreCase(value.strip())) {
        return r;
      }
    }
    throw new IllegalArgumentException(
        "timestamps must be position, strict or lerobot, got \"" + value + "\"");
  }
}
