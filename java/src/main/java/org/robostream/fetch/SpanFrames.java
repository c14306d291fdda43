package org.robostream.fetch;

import org.robostream.codec.FrameTable;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.VideoSpan;

/**
 * Checks, from a file's frame table and before any of them is decoded, that the frames an episode's
 * span addresses are that episode's: frame f of the episode is meant to be shown at {@code
 * from_timestamp + f / fps} (after the file's first pts), and the frame the loader will take for it
 * must be within half a frame of that time and inside the span. By position (the file holds exactly
 * the frames the table puts there) the frame is number {@code frameOffset + f}, and it may also sit
 * later by LeRobot's concatenation shift ({@link VideoSpan#maxPositionDrift}); by pts it is the
 * nearest frame, which must also be within the decoder's tolerance. Stateless.
 */
final class SpanFrames {
  private SpanFrames() {}

  /**
   * @param first the file's first pts in seconds: the origin of the table's timestamps
   * @param tolerance how far the nearest frame may be from its time when looked up by pts
   * @throws DatasetException.BadMetadata naming the file, episode, frame and both times
   */
  static void check(
      EpisodeInfo episode,
      VideoSpan span,
      FrameTable table,
      double first,
      int fps,
      boolean byPosition,
      double tolerance) {
    double halfFrame = 0.5 / fps;
    double early = byPosition ? halfFrame : Math.min(tolerance, halfFrame);
    double late = byPosition ? span.maxPositionDrift(fps) : early;
    double spanStart = first + span.fromTimestamp() - halfFrame;
    double spanEnd = first + span.toTimestamp() - halfFrame + (late - early);
    for (int f = 0; f < episode.length(); f++) {
      double wanted = first + span.fromTimestamp() + f / (double) fps;
      int frame = byPosition ? span.frameOffset() + f : table.nearestFrame(wanted);
      if (frame >= table.frameCount()) {
        throw problem(
            span,
            episode,
            f,
            "is frame " + frame + " of the file, which has only " + table.frameCount());
      }
      double pts = table.ptsSeconds(frame);
      if (!(pts - wanted >= -early && pts - wanted <= late)) {
        throw problem(
            span,
            episode,
            f,
            (byPosition
                    ? "(frame " + frame + " of the file)"
                    : "(looked up by pts: nearest frame " + frame + ")")
                + " has pts "
                + pts
                + " s but the episodes table puts it at "
                + wanted
                + " s (allowed: "
                + early
                + " s before to "
                + late
                + " s after"
                + (byPosition && span.episodesBefore() > 0
                    ? ", with up to "
                        + VideoSpan.APPEND_SHIFT_SECONDS
                        + " s of concatenation shift"
                        + " for each of the "
                        + span.episodesBefore()
                        + " episodes before it"
                    : "")
                + ")");
      }
      if (pts < spanStart || pts >= spanEnd) {
        throw problem(
            span,
            episode,
            f,
            "has pts "
                + pts
                + " s, outside the episode's span"
                + " from "
                + span.fromTimestamp()
                + " to "
                + span.toTimestamp()
                + " s");
      }
    }
  }

  private static DatasetException problem(
      VideoSpan span, EpisodeInfo episode, int frame, String what) {
    return new DatasetException.BadMetadata(
        span.file().toString(),
        "episode " + episode.index() + " (" + span.camera() + ") frame " + frame + " " + what);
  }
}
