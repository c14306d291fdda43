package org.robostream.dataset;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How a {@link DatasetSource} is opened, whatever its location. Immutable; {@code with...} methods
 * return changed copies.
 *
 * @param dataFilesRoot where {@code data/} and {@code videos/} are (a folder, {@code
 *     hf://buckets/...} or {@code hf://datasets/...}); null: beside {@code meta/}
 * @param symlinks whether a local dataset's files may resolve through links outside its roots
 * @param episodes the episodes to keep (empty: all)
 * @param cameras the cameras to keep (empty: all); the others' files are neither checked nor read
 * @param environment the variables a source reads ({@code HF_ENDPOINT}, {@code HF_TOKEN}, ...)
 * @param progress hears the name of every file a remote source fetches while opening
 */
public record SourceOptions(
    String dataFilesRoot,
    SymlinkPolicy symlinks,
    Optional<List<Integer>> episodes,
    Optional<List<String>> cameras,
    Map<String, String> environment,
    Consumer<String> progress) {
  public SourceOptions {
    environment = Map.copyOf(environment);
    episodes = episodes.map(List::copyOf);
    cameras = cameras.map(List::copyOf);
  }

  /**
   * All episodes and cameras, files beside meta/, links confined, this process's environment,
   * silent.
   */
  public static SourceOptions defaults() {
    return new SourceOptions(
        null,
        SymlinkPolicy.CONFINED,
        Optional.empty(),
        Optional.empty(),
        System.getenv(),
        file -> {});
  }

  public SourceOptions withDataFilesRoot(String location) {
    return new SourceOptions(location, symlinks, episodes, cameras, environment, progress);
  }

  public SourceOptions withSymlinks(SymlinkPolicy policy) {
    return new SourceOptions(dataFilesRoot, policy, episodes, cameras, environment, progress);
  }

  public SourceOptions withEpisodes(Collection<Integer> kept) {
    return new SourceOptions(
        dataFilesRoot, symlinks, Optional.of(List.copyOf(kept)), cameras, environment, progress);
  }

  public SourceOptions withCameras(Collection<String> kept) {
    return new SourceOptions(
        dataFilesRoot, symlinks, episodes, Optional.of(List.copyOf(kept)), environment, progress);
  }

  public SourceOptions withEnvironment(Map<String, String> variables) {
    return new SourceOptions(dataFilesRoot, symlinks, episodes, cameras, variables, progress);
  }

  public SourceOptions withProgress(Consumer<String> listener) {
    return new SourceOptions(dataFilesRoot, symlinks, episodes, cameras, environment, listener);
  }
}
