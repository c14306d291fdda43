package org.robostream.dataset;

import java.util.Locale;

/**
 * The messages of the data-file refusals of {@link TimestampRule#STRICT} and {@link
 * TimestampRule#LEROBOT}: what the row says, what the rule needs, and the rules that let it
 * through. Stateless.
 */
final class TimestampRefusals {
  /** The rules that stream every row, named in each interface. */
  static final String POSITION_RULE =
      "timestamps(TimestampRule.POSITION) (--timestamps position, the default: row k shows frame k"
          + " of its episode, the timestamp column as written)";

  private TimestampRefusals() {}

  /** {@code t}'s first row beyond {@code tolerance} from its frame's time, refused by STRICT. */
  static String strict(EpisodeTimestamps t, int fps, double tolerance) {
    EpisodeTimestamps.Row row = t.beyondTolerance();
    return "episode "
        + t.episode()
        + " row "
        + row.row()
        + " has timestamp "
        + seconds(row.timestamp())
        + " s, but its frame is at "
        + seconds(row.row() / (double) fps)
        + " s (frame_index / fps), not within the tolerance of "
        + new java.math.BigDecimal(tolerance)
            .round(new java.math.MathContext(6))
            .stripTrailingZeros()
            .toPlainString()
        + " s, and timestamps(STRICT) requires every row's timestamp to be its frame's time."
        + " The episode's rows "
        + what(t)
        + ". To stream them: "
        + POSITION_RULE
        + ", timestamps(TimestampRule.LEROBOT) (--timestamps lerobot: the frame nearest each"
        + " row's timestamp, as LeRobot picks it), or a larger tolerance (toleranceSeconds)";
  }

  /** {@code t} has no timestamp column, which LEROBOT picks frames by. */
  static String noTimestamps(EpisodeTimestamps t) {
    return "episode "
        + t.episode()
        + " has no timestamp column (or info.json does not declare it), and timestamps(LEROBOT)"
        + " picks each row's frame by its timestamp, as LeRobot does (which needs the column"
        + " too). To stream it: "
        + POSITION_RULE;
  }

  private static String what(EpisodeTimestamps t) {
    String drift = "up to " + seconds(t.maxDriftSeconds()) + " s from frame_index / fps";
    return switch (t.convention()) {
      case FRAME_END -> "are stamped one frame late ((frame_index + 1) / fps)";
      case RECORDED -> "are as recorded (" + drift + ")";
      default ->
          "are within half a frame of frame_index / fps, not within the tolerance (" + drift + ")";
    };
  }

  private static String seconds(double s) {
    return String.format(Locale.ROOT, "%.6f", s);
  }
}
