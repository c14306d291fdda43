package org.robostream.dataset;

import java.util.List;

/** One episode of the episodes table: its index, frame count and task strings. Immutable. */
public record EpisodeInfo(int index, int length, List<String> tasks) {
  public EpisodeInfo {
    tasks = List.copyOf(tasks);
    if (index < 0 || length < 0) {
      throw new IllegalArgumentException("episode index and length must be >= 0");
    }
  }
}
