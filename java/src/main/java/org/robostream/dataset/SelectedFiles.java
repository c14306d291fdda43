package org.robostream.dataset;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.robostream.source.ContentKind;

/**
 * The up-front check that every file the kept episodes and cameras need is there: each episode's
 * data file and each kept camera's video file, looked up once each (a stat on disk, a tree listing
 * for the Hub: {@link FileLookup}), when a dataset source is opened and before any worker starts.
 * Anything absent is one {@link DatasetException.MissingFile}: how many of how many, the first few
 * names, placeholders named as such with the command that fetches the real files, and the {@code
 * cameras(...)} / {@code episodes(...)} selection of what is present ({@link PresentSelection}).
 * Stateless.
 */
public final class SelectedFiles {
  /** Names a message lists before "..." (the count says how many more). */
  static final int NAMED = 4;

  private SelectedFiles() {}

  /**
   * Checks every file {@code metadata}'s kept episodes and cameras need.
   *
   * @param lookup what stands where each file should be
   * @param fetchCommand for a placeholder kind, the command that fetches the real files (given the
   *     data root)
   * @throws DatasetException.MissingFile naming the dataset's data root, when a file is absent or a
   *     placeholder
   */
  public static void requirePresent(
      LeRobotMetadata metadata,
      FileLookup lookup,
      BiFunction<Path, ContentKind, String> fetchCommand) {
    Map<Path, FileState> states = new LinkedHashMap<>();
    needed(metadata).forEach(file -> states.put(file, lookup.lookup(file)));
    List<Path> absent = new ArrayList<>();
    List<Path> placeholders = new ArrayList<>();
    states.forEach(
        (file, state) -> {
          if (!state.isPresent()) {
            absent.add(file);
          }
          if (state.kind() == FileState.Kind.PLACEHOLDER) {
            placeholders.add(file);
          }
        });
    if (absent.isEmpty()) {
      return;
    }
    Path root = metadata.dataRoot();
    StringBuilder problem = new StringBuilder();
    problem
        .append(absent.size())
        .append(" of the ")
        .append(states.size())
        .append(" files of the selected episodes and cameras are missing: ")
        .append(names(root, absent));
    if (!placeholders.isEmpty()) {
      ContentKind kind = states.get(placeholders.get(0)).placeholder();
      problem
          .append("; ")
          .append(placeholders.size())
          .append(" of them are placeholders, not the files (")
          .append(root.relativize(placeholders.get(0)))
          .append(" is ")
          .append(kind.description())
          .append("): fetch the real files with ")
          .append(fetchCommand.apply(root, kind));
    }
    Path first = absent.get(0);
    Path other = lookup.elsewhere(root, first);
    if (other != null) {
      boolean video = metadata.videoFiles().contains(first);
      problem
          .append("; ")
          .append(root.relativize(other))
          .append(" is there: the files are in another folder than meta/info.json's ")
          .append(
              video
                  ? "video_path " + metadata.info().videoPath().template()
                  : "data_path " + metadata.info().dataPath().template())
          .append(" says: move them there, or correct the template");
    }
    problem.append("; ").append(PresentSelection.of(metadata, f -> states.get(f).isPresent()));
    throw new DatasetException.MissingFile(root.toString(), problem.toString());
  }

  /**
   * The files the kept episodes and cameras need, each once: episode by episode, its data file,
   * then its kept cameras' videos.
   */
  public static Set<Path> needed(LeRobotMetadata metadata) {
    Set<Path> files = new LinkedHashSet<>();
    for (EpisodeInfo e : metadata.episodes()) {
      files.add(e.dataFile());
      for (String camera : metadata.videoCameras()) {
        files.add(e.video(camera).file());
      }
    }
    return files;
  }

  private static String names(Path root, List<Path> files) {
    List<String> named = new ArrayList<>();
    for (Path f : files.subList(0, Math.min(NAMED, files.size()))) {
      named.add(root.relativize(f).toString());
    }
    return String.join(", ", named) + (files.size() > NAMED ? ", ..." : "");
  }
}
