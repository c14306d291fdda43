package org.robostream.dataset;

import java.nio.file.Path;

/**
 * Where one episode of one camera lives: its MP4 and the time span inside it. Immutable.
 *
 * @param camera the video feature name, e.g. {@code observation.images.top}
 * @param file the MP4 (under the data root)
 * @param fromTimestamp seconds inside the file where the episode starts, from the episode table
 * @param toTimestamp where it ends (a table's last-frame {@code to_timestamp} plus one frame)
 * @param frameOffset frames of the episodes stored before it in the file: its frame 0's position
 * @param fileFrames the frames the metadata puts into the file; when the real count equals it,
 *     frames are addressed by position (docs/DESIGN.md, "Semantics")
 * @param episodesBefore how many episodes are stored before this one in the same file
 */
public record VideoSpan(
    String camera,
    Path file,
    double fromTimestamp,
    double toTimestamp,
    int frameOffset,
    int fileFrames,
    int episodesBefore) {
  /**
   * The most LeRobot's concatenation shifts one appended episode: it offsets each piece by the
   * durations before it rounded up to whole milliseconds (docs/DESIGN.md, "Semantics"; measured
   * +0.33 ms per episode on real AV1 files), so the frames of the k-th episode of a file sit up to
   * k ms after {@code from_timestamp + frame / fps}.
   */
  public static final double APPEND_SHIFT_SECONDS = 1e-3;

  public VideoSpan {
    if (frameOffset < 0 || fileFrames < 0 || episodesBefore < 0) {
      throw new IllegalArgumentException("negative frame offset, count or position for " + file);
    }
  }

  /**
   * The latest a frame addressed by position may sit after {@code from_timestamp + frame / fps} in
   * seconds: half a frame, plus the concatenation's shift of every episode stored before it. (The
   * earliest is half a frame before: the shift is never negative.)
   */
  public double maxPositionDrift(int fps) {
    return 0.5 / fps + episodesBefore * APPEND_SHIFT_SECONDS;
  }
}
