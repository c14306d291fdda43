package org.robostream.dataset;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The one warning {@link TimestampRule#POSITION} gives when its frames are not the ones LeRobot's
 * rule picks: a user comparing with LeRobot must not find every frame off by one in silence. It
 * says which rule was used, how far LeRobot's frames are, in which episodes, and the rule that
 * gives LeRobot's frames. Stateless.
 */
final class PositionWarning {
  /** Ranges listed before the rest of an episode list is counted instead. */
  private static final int MAX_RANGES = 12;

  /** How the rule that gives LeRobot's frames is named in each interface. */
  static final String LEROBOT_RULE =
      "timestamps=\"lerobot\" (Python), TimestampRule.LEROBOT (Java), --timestamps lerobot (CLI)";

  private PositionWarning() {}

  /**
   * The warning for {@code episodes} (the kept ones) at {@code fps}, or empty when LeRobot's rule
   * picks every row's own frame.
   */
  static Optional<String> of(Collection<EpisodeTimestamps> episodes, int fps) {
    List<Integer> late = new ArrayList<>();
    List<EpisodeTimestamps> recorded = new ArrayList<>();
    for (EpisodeTimestamps e : episodes) {
      if (e.lerobot().same()) {
        continue;
      }
      if (e.convention() == EpisodeTimestamps.Convention.FRAME_END) {
        late.add(e.episode());
      } else {
        recorded.add(e);
      }
    }
    if (late.isEmpty() && recorded.isEmpty()) {
      return Optional.empty();
    }
    int n = episodes.size();
    StringBuilder s =
        new StringBuilder(
            "timestamps position (the default) shows row k of an episode with frame k of its"
                + " video, but LeRobot picks the frame nearest each row's timestamp, and here that"
                + " is another frame.");
    if (!late.isEmpty()) {
      s.append(" Rows stamped one frame late ((frame_index + 1) / fps) in ")
          .append(late.size())
          .append(" of ")
          .append(n)
          .append(" episodes (")
          .append(ranges(late))
          .append(
              "): LeRobot would show frame k+1 for row k, and fail on each episode's last row.");
    }
    if (!recorded.isEmpty()) {
      s.append(' ').append(recorded(recorded, n, fps));
    }
    s.append(" For LeRobot's frames: ").append(LEROBOT_RULE).append('.');
    return Optional.of(s.toString());
  }

  private static String recorded(List<EpisodeTimestamps> recorded, int n, int fps) {
    long rows = 0;
    long outside = 0;
    EpisodeTimestamps worst = recorded.get(0);
    for (EpisodeTimestamps e : recorded) {
      rows += e.lerobot().rowsElsewhere();
      outside += e.lerobot().rowsOutside();
      if (Math.abs(e.lerobot().maxOffset()) > Math.abs(worst.lerobot().maxOffset())) {
        worst = e;
      }
    }
    EpisodeTimestamps.LeRobotChoice w = worst.lerobot();
    return "Rows as recorded in "
        + recorded.size()
        + " of "
        + n
        + " episodes ("
        + ranges(recorded.stream().map(EpisodeTimestamps::episode).toList())
        + "): LeRobot would show another frame on "
        + rows
        + (rows == 1 ? " row" : " rows")
        + ", up to "
        + Math.abs(w.maxOffset())
        + (Math.abs(w.maxOffset()) == 1 ? " frame " : " frames ")
        + (w.maxOffset() > 0 ? "after" : "before")
        + " the row's own (episode "
        + worst.episode()
        + " row "
        + w.maxOffsetRow()
        + ", timestamp "
        + String.format(Locale.ROOT, "%.3f", w.maxOffsetTimestamp())
        + " s, frame_index / fps "
        + String.format(Locale.ROOT, "%.3f", w.maxOffsetRow() / (double) fps)
        + " s)"
        + (outside == 0
            ? ""
            : ", and fail on "
                + outside
                + (outside == 1 ? " row whose timestamp falls" : " rows whose timestamps fall")
                + " outside their episode's frames")
        + ".";
  }

  /** Episode indices as ranges, {@code 0-4,7}; past {@link #MAX_RANGES} ranges, a count. */
  static String ranges(List<Integer> episodes) {
    String all = EpisodeRanges.format(episodes);
    String[] parts = all.split(",");
    if (parts.length <= MAX_RANGES) {
      return all;
    }
    List<Integer> shown = new ArrayList<>();
    String[] head = java.util.Arrays.copyOf(parts, MAX_RANGES);
    for (String p : head) {
      String[] ends = p.split("-");
      int from = Integer.parseInt(ends[0]);
      int to = Integer.parseInt(ends[ends.length - 1]);
      for (int e = from; e <= to; e++) {
        shown.add(e);
      }
    }
    return String.join(",", head) + " and " + (episodes.size() - shown.size()) + " more";
  }
}
