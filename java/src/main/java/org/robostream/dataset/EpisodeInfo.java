package org.robostream.dataset;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One episode of the episodes table: its index, frame count, tasks, the data Parquet holding its
 * rows and, per camera, where its video lives. Immutable.
 *
 * @param datasetFromIndex global index ({@code index} column) of the episode's first frame
 * @param videos per camera (info.json order) the file and time span of this episode
 */
public record EpisodeInfo(
    int index,
    int length,
    List<String> tasks,
    long datasetFromIndex,
    Path dataFile,
    Map<String, VideoSpan> videos) {
  public EpisodeInfo {
    tasks = List.copyOf(tasks);
    videos = Collections.unmodifiableMap(new LinkedHashMap<>(videos));
    if (index < 0 || length < 0) {
      throw new IllegalArgumentException(
          "episode index and length must be >= 0, got episode " + index + " with length " + length);
    }
  }

  /**
   * The span of {@code camera}; an {@link IllegalArgumentException} naming the cameras if absent.
   */
  public VideoSpan video(String camera) {
    VideoSpan span = videos.get(camera);
    if (span == null) {
      throw new IllegalArgumentException(
          camera + " is not a camera of episode " + index + "; cameras: " + videos.keySet());
    }
    return span;
  }
}
