package org.robostream.fetch;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.robostream.codec.FrameTable;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.EpisodeTimestamps;
import org.robostream.dataset.TimestampReport;
import org.robostream.dataset.TimestampRule;
import org.robostream.dataset.VideoSpan;
import org.robostream.video.VideoStreamInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which frame of its video each row of an episode gets (docs/LOADER.md, "Which frame a row gets"),
 * decided once per file and checked once per episode and camera. By position when the file holds
 * exactly the table's frames: row f is frame {@code frameOffset + f}, pts checked by {@link
 * SpanFrames}. Else by time, the frame nearest {@code from_timestamp + f / fps}, refused when the
 * timestamps leave that in doubt ({@link EpisodeTimestamps#agreesWithPosition()}). Under {@link
 * TimestampRule#LEROBOT}, by the row's timestamp ({@link TimestampFrames}).
 *
 * <p>Checks run before any frame is decoded; errors are {@link DatasetException.BadMetadata} naming
 * the file. Thread-safe: racing threads do the same work and agree.
 */
public final class FramePlacement {
  private static final Logger LOG = LoggerFactory.getLogger(FramePlacement.class);

  private final DatasetInfo info;
  private final int fps;
  private final double tolerance;
  private final TimestampReport timestamps;
  private final TimestampRule rule;
  private final Map<Path, Boolean> byPosition = new ConcurrentHashMap<>();
  private final Set<CheckedSpan> checkedSpans = ConcurrentHashMap.newKeySet();
  private final Map<CheckedSpan, TimestampFrames.Picked> picked = new ConcurrentHashMap<>();

  /** An episode's camera whose frames were checked against its file's frame table. */
  private record CheckedSpan(int episode, String camera) {}

  /**
   * @param tolerance how far a frame looked up by time may be from it, in seconds
   * @param timestamps what the kept episodes' timestamp columns say (with every row's timestamp
   *     under {@link TimestampRule#LEROBOT})
   * @param rule which frame a row gets
   */
  public FramePlacement(
      DatasetInfo info, double tolerance, TimestampReport timestamps, TimestampRule rule) {
    this.info = info;
    this.fps = info.fps();
    this.tolerance = tolerance;
    this.timestamps = timestamps;
    this.rule = rule;
  }

  /** Whether rows get the frame nearest their timestamp ({@link TimestampRule#LEROBOT}). */
  boolean byTimestamp() {
    return rule == TimestampRule.LEROBOT;
  }

  /**
   * Under {@link TimestampRule#LEROBOT}, the frames {@code episode}'s rows show from {@code
   * camera}'s file, once {@link #checkSpan} picked them; null before.
   */
  TimestampFrames.Picked picked(int episode, String camera) {
    return picked.get(new CheckedSpan(episode, camera));
  }

  /** How far a frame picked by time may be from it, in seconds. */
  double tolerance() {
    return tolerance;
  }

  /** The dataset's timestamps, as read when it was opened. */
  TimestampReport timestamps() {
    return timestamps;
  }

  /**
   * Whether the frames of {@code span}'s file are addressed by position, decided the first time the
   * file is asked for: the file's frames must have the camera's declared size, and a file addressed
   * by time must last as long as the table's frames.
   */
  boolean byPosition(VideoSpan span, VideoStreamInfo video) {
    // Decided once: the checks and the warning run in one thread while others asking for the
    // same file wait; a check that throws leaves no decision, so the next asker throws too.
    return byPosition.computeIfAbsent(span.file(), file -> decide(span, video));
  }

  private boolean decide(VideoSpan span, VideoStreamInfo video) {
    info.features()
        .get(span.camera())
        .frameShape()
        .requireSize(span.camera(), span.file().toString(), video.width(), video.height());
    boolean match = video.frameCount() == span.fileFrames();
    if (!match) {
      requireTableDuration(span, video);
    }
    if (!match && !byTimestamp()) { // by timestamp, every file's frames are picked by time
      LOG.warn(
          "{}: {} frames but the episode table puts {} there; addressing frames by pts"
              + " (tolerance {} s)",
          span.file(),
          video.frameCount(),
          span.fileFrames(),
          tolerance);
    }
    return match;
  }

  /**
   * Checks, once per episode and camera, that the frames {@code span} addresses are the episode's
   * (from the file's frame table, before any is decoded), deciding first how the file's frames are
   * addressed ({@link #byPosition}). The file's first pts is the origin of the table's timestamps.
   * Under {@link TimestampRule#LEROBOT} this picks every row's frame by its timestamp instead
   * ({@link TimestampFrames}), refusing a row LeRobot fails on.
   */
  public void checkSpan(
      EpisodeInfo episode, VideoSpan span, VideoStreamInfo video, FrameTable table) {
    boolean positions = byPosition(span, video);
    CheckedSpan key = new CheckedSpan(episode.index(), span.camera());
    if (checkedSpans.contains(key)) {
      return;
    }
    if (byTimestamp()) {
      picked.put(
          key,
          TimestampFrames.pick(
              episode,
              span,
              table,
              video.firstPtsSeconds(),
              fps,
              episode.length() == 0 ? new double[0] : timestamps.rowTimestamps(episode.index()),
              tolerance));
      checkedSpans.add(key);
      return;
    }
    if (!positions) {
      requireTimestampsOfPositions(episode, span, table);
    }
    SpanFrames.check(episode, span, table, video.firstPtsSeconds(), fps, positions, tolerance);
    checkedSpans.add(key);
  }

  /**
   * Looked up by time, a row's frame is the one at {@code frame_index / fps}: only the right one
   * when the row's timestamp says the same. Recorded or one-frame-late timestamps leave it in
   * doubt.
   */
  private void requireTimestampsOfPositions(EpisodeInfo episode, VideoSpan span, FrameTable table) {
    EpisodeTimestamps t = timestamps.episodes().get(episode.index());
    if (t == null || t.agreesWithPosition()) {
      return;
    }
    String what =
        t.convention() == EpisodeTimestamps.Convention.FRAME_END
            ? "run one frame late ((frame_index + 1) / fps)"
            : "are as recorded (up to "
                + String.format(java.util.Locale.ROOT, "%.3f", t.maxDriftSeconds())
                + " s from frame_index / fps)";
    throw new DatasetException.BadMetadata(
        span.file().toString(),
        "episode "
            + episode.index()
            + " ("
            + span.camera()
            + "): the file holds "
            + table.frameCount()
            + " frames but the episodes table puts "
            + span.fileFrames()
            + " there, so its frames can only be looked up by time, and the episode's timestamps "
            + what
            + ": which frame a row shows is in doubt. Pick each row's frame by its timestamp, as"
            + " LeRobot does (timestamps(TimestampRule.LEROBOT) / --timestamps lerobot),"
            + " re-encode the video with exactly one frame per row, or leave the episode out"
            + " (episodes(...) / --episodes)");
  }

  /**
   * A file whose frames are looked up by pts (its frame count is not the table's) must still last
   * as long as the frames the table puts there: a file longer or shorter than its episodes' spans
   * holds episodes the table does not describe, and a lookup by pts could give another episode's
   * frame. (Addressed by position, each frame's pts is checked instead: LeRobot's concatenation
   * shifts each appended episode by up to a millisecond, so a long file's duration drifts from the
   * table's while every frame is still where its position says.)
   */
  private void requireTableDuration(VideoSpan span, VideoStreamInfo video) {
    double table = span.fileFrames() / (double) fps;
    double file = video.durationSeconds();
    if (!(Math.abs(file - table) < 0.5 / fps)) {
      throw new DatasetException.BadMetadata(
          span.file().toString(),
          "holds "
              + file
              + " s of"
              + " video ("
              + video.frameCount()
              + " frames) but the episodes table puts "
              + span.fileFrames()
              + " frames there, "
              + table
              + " s at "
              + fps
              + " fps");
    }
  }
}
