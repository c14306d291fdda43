package org.robostream.cli;

import java.util.List;
import org.robostream.dataset.EpisodeRanges;
import org.robostream.dataset.SourceOptions;
import picocli.CommandLine.Option;

/**
 * Which episodes and cameras of a dataset a command reads (a picocli mixin of every command that
 * reads a dataset): {@code --episodes 0-9,12} and {@code --cameras a,b}, the library's {@code
 * episodes(...)} and {@code cameras(...)}. Opening the dataset checks that the selection's files
 * are all there. Not thread-safe (filled by picocli, read once).
 */
final class SelectionOptions {
  @Option(
      names = "--episodes",
      paramLabel = "RANGES",
      description = "episodes to read, as indices and ranges: 0-9,12 (default: all)")
  String episodes;

  @Option(
      names = "--cameras",
      split = ",",
      paramLabel = "KEY",
      description =
          "cameras to decode, by feature key: observation.images.top,observation.images.wrist"
              + " (default: all; the others' files are neither checked nor read)")
  List<String> cameras;

  /** {@code options} with this selection; a malformed --episodes is an exit 2 naming it. */
  SourceOptions applyTo(SourceOptions options) {
    SourceOptions out =
        episodes == null ? options : options.withEpisodes(EpisodeRanges.parse(episodes));
    return cameras == null ? out : out.withCameras(cameras);
  }
}
