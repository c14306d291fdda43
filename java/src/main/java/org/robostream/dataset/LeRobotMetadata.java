package org.robostream.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metadata of a local LeRobot dataset, layouts v3.0 and v2.1: info.json, tasks, episodes with
 * their data file and per-camera video spans, and statistics. Metadata comes from one root; data
 * and videos may come from a second one ({@code data_files_root}). Immutable after {@link #open},
 * thread-safe.
 */
public final class LeRobotMetadata {
  private static final Logger LOG = LoggerFactory.getLogger(LeRobotMetadata.class);

  private final DatasetRoots roots;
  private final DatasetInfo info;
  private final MetadataTables tables;
  private final Map<Integer, EpisodeInfo> episodes;

  private LeRobotMetadata(
      DatasetRoots roots,
      DatasetInfo info,
      MetadataTables tables,
      Map<Integer, EpisodeInfo> episodes) {
    this.roots = roots;
    this.info = info;
    this.tables = tables;
    this.episodes = episodes;
  }

  /** Opens the dataset at {@code root}; see {@link #open(Path, Path, Optional)}. */
  public static LeRobotMetadata open(Path root, Optional<? extends Collection<Integer>> filter) {
    return open(root, root, filter);
  }

  /**
   * Opens the dataset whose {@code meta/} is under {@code root} and whose {@code data/} and {@code
   * videos/} are under {@code dataRoot}, links confined to them. With an episode filter only those
   * episodes are kept; each must be listed in the metadata and its data and video files must exist.
   */
  public static LeRobotMetadata open(
      Path root, Path dataRoot, Optional<? extends Collection<Integer>> filter) {
    return open(root, dataRoot, filter, true);
  }

  /**
   * As {@link #open(Path, Path, Optional)}; with {@code localVideos} false the filtered episodes'
   * video files are not required to exist under {@code dataRoot} (they are read remotely).
   */
  public static LeRobotMetadata open(
      Path root,
      Path dataRoot,
      Optional<? extends Collection<Integer>> filter,
      boolean localVideos) {
    return open(DatasetRoots.of(root, dataRoot, SymlinkPolicy.CONFINED), filter, localVideos);
  }

  /**
   * Opens the dataset at {@code roots}: info.json and the episodes table are read and checked
   * against each other (see {@link EpisodeLayout}); every existing data and video file of the kept
   * episodes is checked against the roots' {@link SymlinkPolicy}. Data rows and videos are not read
   * here: see {@link #checkDataFiles()}.
   */
  public static LeRobotMetadata open(
      DatasetRoots roots, Optional<? extends Collection<Integer>> filter, boolean localVideos) {
    Path infoFile = roots.metaFile("info.json");
    DatasetInfo info = DatasetInfo.read(infoFile);
    MetadataTables tables =
        switch (info.majorVersion()) {
          case 2 -> V21MetadataReader.read(roots, info);
          case 3 -> V30MetadataReader.read(roots, info);
          default ->
              throw new DatasetException.BadMetadata(
                  infoFile.toString(),
                  "codebase_version "
                      + info.codebaseVersion()
                      + " is not supported (v2.1 and v3.x are)");
        };
    if (info.majorVersion() == 3 && !info.codebaseVersion().startsWith("v3.0")) {
      LOG.warn(
          "{}: codebase_version {} is newer than v3.0; reading it as v3.0",
          infoFile,
          info.codebaseVersion());
    }
    Map<Integer, EpisodeInfo> all = new LinkedHashMap<>();
    tables.episodes().forEach(e -> all.put(e.index(), e));
    Map<Integer, EpisodeInfo> kept = new TreeMap<>(all);
    if (filter.isPresent()) {
      kept = new TreeMap<>();
      for (int index : Set.copyOf(filter.get())) {
        EpisodeInfo e = all.get(index);
        if (e == null) {
          throw new DatasetException.BadMetadata(
              tables.episodesSource(),
              "episode " + index + " is not listed (the dataset has " + all.size() + " episodes)");
        }
        kept.put(index, e);
      }
    }
    LeRobotMetadata m =
        new LeRobotMetadata(
            roots, info, tables, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(kept)));
    for (EpisodeInfo e : kept.values()) {
      roots.confineData(e.dataFile());
      e.videos().values().forEach(v -> roots.confineData(v.file()));
    }
    if (filter.isPresent()) {
      kept.keySet().forEach(e -> m.requireFiles(e, localVideos));
    }
    return m;
  }

  /**
   * Reads the footer and the {@code episode_index} column of every data file of the kept episodes
   * and checks that its columns are the declared features and that it holds, contiguous, exactly
   * the rows the episodes table gives the episodes it puts there, and no rows of other episodes
   * ({@link DatasetException.BadMetadata} otherwise). Called before streaming, so that an episode
   * whose rows disagree with the table is an error up front rather than after other episodes were
   * delivered, and lengths, which size the stream's frame lists, are backed by real rows. Image
   * features' first images must have the declared size ({@link ImageSizes}). Reads the files each
   * time it is called.
   */
  public void checkDataFiles() {
    DataFileRows.check(info, episodes.values(), tables.episodes(), tables.episodesSource());
    ImageSizes.checkFirstImages(this);
  }

  /** The root holding {@code meta/} (absolute). */
  public Path root() {
    return roots.metaRoot();
  }

  /**
   * The root holding {@code data/} and {@code videos/} (the same as {@link #root()} by default).
   */
  public Path dataRoot() {
    return roots.dataRoot();
  }

  public DatasetInfo info() {
    return info;
  }

  /** Episodes kept (all, or those of the filter), ascending by index. */
  public List<EpisodeInfo> episodes() {
    return List.copyOf(episodes.values());
  }

  /** The kept episode {@code index}; an {@link IllegalArgumentException} if it is not kept. */
  public EpisodeInfo episode(int index) {
    EpisodeInfo e = episodes.get(index);
    if (e == null) {
      throw new IllegalArgumentException(
          "episode "
              + index
              + " is not part of this dataset view"
              + " ("
              + episodes.size()
              + " episodes kept)");
    }
    return e;
  }

  /** Every task, by task index. */
  public Map<Integer, String> tasks() {
    return new TreeMap<>(tables.tasks());
  }

  public String task(int taskIndex) {
    String t = tables.tasks().get(taskIndex);
    if (t == null) {
      throw new DatasetException.BadMetadata(
          root().resolve("meta").toString(), "no task with index " + taskIndex);
    }
    return t;
  }

  /** meta/stats.json, when the dataset has one. */
  public Optional<JsonNode> stats() {
    return tables.stats();
  }

  /** v2.1 per-episode statistics (episodes_stats.jsonl) by episode index; empty for v3.0. */
  public Map<Integer, JsonNode> episodeStats() {
    return tables.episodeStats();
  }

  /**
   * The distinct video files of the kept episodes: camera by camera (info.json order), each
   * camera's files in path order (a v3.0 file holds many episodes; a v2.1 file one).
   */
  public List<Path> videoFiles() {
    List<Path> out = new ArrayList<>();
    for (String camera : info.videoKeys()) {
      out.addAll(videoFiles(camera));
    }
    return out;
  }

  /** The distinct video files of camera {@code videoKey} for the kept episodes, in path order. */
  public List<Path> videoFiles(String videoKey) {
    SortedSet<Path> files = new TreeSet<>();
    episodes.values().forEach(e -> files.add(e.video(videoKey).file()));
    return List.copyOf(files);
  }

  /** The Parquet file holding the frames of {@code episode}. */
  public Path dataFile(int episode) {
    return episode(episode).dataFile();
  }

  /** The MP4 of camera {@code videoKey} holding {@code episode}. */
  public Path videoFile(int episode, String videoKey) {
    Feature f = info.features().get(videoKey);
    if (f == null || !f.isVideo()) {
      throw new IllegalArgumentException(
          videoKey + " is not a video feature; cameras: " + info.videoKeys());
    }
    return episode(episode).video(videoKey).file();
  }

  /** Throws {@link DatasetException.MissingFile} naming the first file of the episode missing. */
  public void requireFiles(int episode) {
    requireFiles(episode, true);
  }

  private void requireFiles(int episode, boolean videosToo) {
    EpisodeInfo e = episode(episode);
    List<Path> files = new ArrayList<>();
    files.add(e.dataFile());
    if (videosToo) {
      e.videos().values().forEach(v -> files.add(v.file()));
    }
    for (Path p : files) {
      if (!Files.isRegularFile(p)) {
        throw new DatasetException.MissingFile(
            p.toString(), "file of episode " + episode + " does not exist");
      }
    }
  }
}
