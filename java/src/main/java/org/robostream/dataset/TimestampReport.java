package org.robostream.dataset;

import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the kept episodes' {@code timestamp} columns say, read when the dataset is opened ({@link
 * LeRobotMetadata#checkDataFiles}): each episode's convention, the largest drift from {@code
 * frame_index / fps}, and where LeRobot's rule picks other frames than the row's own. Which frame a
 * row gets is the {@link TimestampRule}'s; this report is what {@code inspect}, the open-time
 * warning ({@link #warnings()}) and {@code stats()} show. Immutable, thread-safe.
 */
public final class TimestampReport {
  /** No episodes, no timestamps: what a dataset view without kept episodes reports. */
  public static final TimestampReport NONE =
      new TimestampReport(Map.of(), 1, TimestampRule.POSITION, false, Map.of());

  private final Map<Integer, EpisodeTimestamps> episodes;
  private final int fps;
  private final TimestampRule rule;
  private final Map<Integer, double[]> rows;
  private final List<String> warnings;

  /**
   * @param rule the rule the rows' frames follow
   * @param videos whether a kept camera is a video (the rules pick video frames only)
   * @param rows every kept row's timestamp by episode, kept for {@link TimestampRule#LEROBOT}
   */
  TimestampReport(
      Map<Integer, EpisodeTimestamps> episodes,
      int fps,
      TimestampRule rule,
      boolean videos,
      Map<Integer, double[]> rows) {
    this.episodes = Collections.unmodifiableMap(new LinkedHashMap<>(episodes));
    this.fps = fps;
    this.rule = rule;
    this.rows = Map.copyOf(rows);
    this.warnings =
        rule == TimestampRule.POSITION && videos
            ? PositionWarning.of(this.episodes.values(), fps).stream().toList()
            : List.of();
  }

  /**
   * The warnings the loader logs once when the dataset is opened, each a sentence or a few for
   * people, for callers to forward (the PyTorch bridge, a notebook). Empty when there is nothing to
   * say. Today at most one: under {@link TimestampRule#POSITION}, where the frames it shows are not
   * those LeRobot's rule picks (rows one frame late, or as recorded), naming the episodes, how far
   * LeRobot's frames are and {@link TimestampRule#LEROBOT}, which gives them.
   */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * The timestamps of kept episode {@code episode}'s rows, by row (a copy), which {@link
   * TimestampRule#LEROBOT} picks its frames by.
   *
   * @throws IllegalStateException when the rows were not kept: under another rule, or for an
   *     episode without a timestamp column
   */
  public double[] rowTimestamps(int episode) {
    double[] r = rows.get(episode);
    if (r == null) {
      throw new IllegalStateException(
          "the row timestamps of episode "
              + episode
              + " were not kept: they are kept under TimestampRule.LEROBOT only (rule here: "
              + rule
              + ")");
    }
    return r.clone();
  }

  /** Each kept episode's timestamps, by episode index. */
  public Map<Integer, EpisodeTimestamps> episodes() {
    return episodes;
  }

  /** The timestamps of kept episode {@code index}. */
  public EpisodeTimestamps episode(int index) {
    EpisodeTimestamps t = episodes.get(index);
    if (t == null) {
      throw new IllegalArgumentException("episode " + index + " is not in the report");
    }
    return t;
  }

  /** How many kept episodes keep {@code c}. */
  public int count(EpisodeTimestamps.Convention c) {
    return (int) episodes.values().stream().filter(e -> e.convention() == c).count();
  }

  /** Whether some kept episode's timestamps are as recorded (drifting). */
  public boolean recorded() {
    return count(EpisodeTimestamps.Convention.RECORDED) > 0;
  }

  /** The recorded episode with the largest drift, if any. */
  public Optional<EpisodeTimestamps> largestRecordedDrift() {
    return episodes.values().stream()
        .filter(e -> e.convention() == EpisodeTimestamps.Convention.RECORDED)
        .max(Comparator.comparingDouble(EpisodeTimestamps::maxDriftSeconds));
  }

  /**
   * One line for people: how many episodes keep which convention and, for recorded timestamps, the
   * largest drift and where. "timestamps: 81 of 81 episodes as recorded, up to 0.274 s (2.7 frames)
   * from frame_index / fps (episode 12 row 40 at 4.274 s)".
   */
  public String summary() {
    if (episodes.isEmpty()) {
      return "timestamps: no episodes";
    }
    int n = episodes.size();
    StringBuilder s = new StringBuilder("timestamps: ");
    String sep = "";
    int recorded = count(EpisodeTimestamps.Convention.RECORDED);
    if (recorded > 0) {
      EpisodeTimestamps worst = largestRecordedDrift().orElseThrow();
      s.append(recorded)
          .append(" of ")
          .append(n)
          .append(" episodes as recorded, up to ")
          .append(seconds(worst.maxDriftSeconds()))
          .append(" s (")
          .append(String.format(Locale.ROOT, "%.1f", worst.maxDriftSeconds() * fps))
          .append(" frames) from frame_index / fps (episode ")
          .append(worst.episode())
          .append(" row ")
          .append(worst.maxDriftRow())
          .append(" at ")
          .append(seconds(worst.maxDriftTimestamp()))
          .append(" s)");
      sep = "; ";
    }
    int late = count(EpisodeTimestamps.Convention.FRAME_END);
    if (late > 0) {
      s.append(sep)
          .append(late)
          .append(" of ")
          .append(n)
          .append(" episodes one frame late on every row ((frame_index + 1) / fps)");
      sep = "; ";
    }
    int regular = count(EpisodeTimestamps.Convention.FRAME_START);
    if (regular > 0) {
      s.append(sep).append(regular).append(" of ").append(n).append(" at frame_index / fps");
      sep = "; ";
    }
    int none = count(EpisodeTimestamps.Convention.NONE);
    if (none > 0) {
      s.append(sep).append(none).append(" of ").append(n).append(" without a timestamp column");
    }
    return s.toString();
  }

  private static String seconds(double s) {
    return String.format(Locale.ROOT, "%.3f", s);
  }

  @Override
  public String toString() {
    return summary();
  }
}
