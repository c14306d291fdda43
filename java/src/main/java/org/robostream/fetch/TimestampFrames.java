package org.robostream.fetch;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import org.robostream.codec.FrameTable;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.TimestampRule;
import org.robostream.dataset.VideoSpan;

/**
 * LeRobot's rule ({@link TimestampRule#LEROBOT}) for one episode and camera, from the file's frame
 * table before any frame is decoded: row r's frame is the frame of the file nearest {@code
 * from_timestamp + timestamp(r)} (times counted from the file's first pts, as every time of the
 * episodes table). A row with no frame within the tolerance is a row LeRobot fails on; a row whose
 * nearest frame is another episode's is a row LeRobot shows another episode's frame for. Both
 * refuse. Stateless.
 */
final class TimestampFrames {
  private TimestampFrames() {}

  /**
   * The frames an episode's rows show.
   *
   * @param positions by row: the frame's position in the file
   * @param times by row: the time it was picked for, in the file's pts seconds
   */
  record Picked(int[] positions, double[] times) {}

  /**
   * Picks every row's frame.
   *
   * @param first the file's first pts in seconds: the origin of the table's timestamps
   * @param rows the episode's row timestamps, by row
   * @param tolerance how far the nearest frame may be from a row's time (LeRobot's {@code
   *     tolerance_s})
   * @throws DatasetException.BadMetadata naming the file, episode, camera, row, its timestamp, the
   *     nearest frame's time, the tolerance and the rule that lets the row through
   */
  static Picked pick(
      EpisodeInfo episode,
      VideoSpan span,
      FrameTable table,
      double first,
      int fps,
      double[] rows,
      double tolerance) {
    if (rows.length != episode.length()) {
      throw new IllegalArgumentException(
          rows.length
              + " row timestamps for the "
              + episode.length()
              + " rows of episode "
              + episode.index());
    }
    double half = 0.5 / fps;
    double spanStart = first + span.fromTimestamp() - half;
    double spanEnd = first + span.toTimestamp() - half;
    int[] positions = new int[rows.length];
    double[] times = new double[rows.length];
    for (int r = 0; r < rows.length; r++) {
      double wanted = first + span.fromTimestamp() + rows[r];
      int frame = table.nearestFrame(wanted);
      double pts = table.ptsSeconds(frame);
      Nearest nearest = new Nearest(r, rows[r], wanted, frame, pts);
      if (!(Math.abs(pts - wanted) < tolerance)) {
        throw new DatasetException.BadMetadata(
            span.file().toString(), beyondTolerance(episode, span, nearest, first, tolerance));
      }
      if (pts < spanStart || pts >= spanEnd) {
        throw new DatasetException.BadMetadata(
            span.file().toString(), anotherEpisodes(episode, span, nearest));
      }
      positions[r] = frame;
      times[r] = wanted;
    }
    return new Picked(positions, times);
  }

  /** A row, the time LeRobot looks for its frame at, and the frame nearest that time. */
  private record Nearest(int row, double timestamp, double wanted, int frame, double pts) {}

  private static String beyondTolerance(
      EpisodeInfo episode, VideoSpan span, Nearest n, double first, double tolerance) {
    double wanted = n.wanted();
    double pts = n.pts();
    int frame = n.frame();
    double away = Math.abs(pts - wanted);
    return rowSays(episode, span, n.row(), n.timestamp())
        + ": LeRobot looks for its frame at "
        + seconds(wanted)
        + " s of the file (from_timestamp "
        + seconds(span.fromTimestamp())
        + " s + the timestamp"
        + (first == 0 ? "" : ", after the file's first pts " + seconds(first) + " s")
        + "), and the nearest, frame "
        + frame
        + " of the file, is at "
        + seconds(pts)
        + " s: "
        + seconds(away)
        + " s away, not within the tolerance of "
        + plain(tolerance)
        + " s. LeRobot fails on this row, so timestamps(LEROBOT) refuses the dataset. To stream"
        + " it: timestamps(TimestampRule.POSITION) (--timestamps position, the default: row k"
        + " shows frame k of its episode), or a larger tolerance (toleranceSeconds; this row"
        + " needs more than "
        + seconds(away)
        + " s)";
  }

  private static String anotherEpisodes(EpisodeInfo episode, VideoSpan span, Nearest n) {
    return rowSays(episode, span, n.row(), n.timestamp())
        + ": the frame nearest "
        + seconds(n.wanted())
        + " s of the file, frame "
        + n.frame()
        + " at "
        + seconds(n.pts())
        + " s, is not this episode's (its span is "
        + seconds(span.fromTimestamp())
        + " to "
        + seconds(span.toTimestamp())
        + " s). LeRobot would show another episode's frame for this row, and timestamps(LEROBOT)"
        + " refuses that. To stream it: timestamps(TimestampRule.POSITION) (--timestamps"
        + " position, the default: row k shows frame k of its episode)";
  }

  private static String rowSays(EpisodeInfo episode, VideoSpan span, int row, double timestamp) {
    return "episode "
        + episode.index()
        + " ("
        + span.camera()
        + ") row "
        + row
        + (row == episode.length() - 1 ? " (its last row)" : "")
        + " has timestamp "
        + seconds(timestamp)
        + " s";
  }

  private static String seconds(double s) {
    return String.format(Locale.ROOT, "%.6f", s);
  }

  /** A tolerance as people write it: 0.0001, not 1.0E-4. */
  static String plain(double s) {
    return new BigDecimal(s).round(new MathContext(6)).stripTrailingZeros().toPlainString();
  }
}
