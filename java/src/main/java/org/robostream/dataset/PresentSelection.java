package org.robostream.dataset;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The selection of a dataset that only reads files that are there, as the options a user writes:
 * {@code cameras("a", "b")} drops the cameras none of whose files are present, {@code
 * episodes("1-2,4")} keeps the episodes whose data file and kept cameras' videos are all present.
 * The CLI turns both into its flags ({@code --cameras a,b}, {@code --episodes 1-2,4}). Stateless.
 */
final class PresentSelection {
  private PresentSelection() {}

  /** How to select what {@code present} says is there, as a sentence part for a message. */
  static String of(LeRobotMetadata metadata, Predicate<Path> present) {
    List<String> cameras = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    List<String> videoCameras = metadata.videoCameras();
    for (String camera : videoCameras) {
      boolean any =
          metadata.episodes().stream().anyMatch(e -> present.test(e.video(camera).file()));
      (any ? cameras : dropped).add(camera);
    }
    List<Integer> episodes = new ArrayList<>();
    for (EpisodeInfo e : metadata.episodes()) {
      if (present.test(e.dataFile())
          && cameras.stream().allMatch(c -> present.test(e.video(c).file()))) {
        episodes.add(e.index());
      }
    }
    if (episodes.isEmpty()
        || (cameras.isEmpty()
            && !dropped.isEmpty()
            && metadata.cameras().size() == videoCameras.size())) {
      return "no episode of the selection has all its files here: fetch them first";
    }
    List<String> options = new ArrayList<>();
    if (!dropped.isEmpty()) {
      List<String> kept = new ArrayList<>(metadata.cameras()); // image cameras live in data files
      kept.removeAll(dropped);
      options.add(
          "cameras("
              + String.join(", ", kept.stream().map(c -> "\"" + c + "\"").toList())
              + ") (no file of "
              + String.join(", ", dropped)
              + " is here)");
    }
    if (episodes.size() < metadata.episodes().size()) {
      options.add(
          "episodes(\""
              + EpisodeRanges.format(episodes)
              + "\") (the "
              + episodes.size()
              + " of "
              + metadata.episodes().size()
              + " episodes whose files are all here)");
    }
    return "select what is here with " + String.join(" and ", options);
  }
}
