package org.robostream.dataset;

import com.fasterxml.jackson.databind.JsonNode;
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

  /** LeRobot's default {@code tolerance_s}: how far a frame may be from a row's time. */
  public static final double DEFAULT_TOLERANCE_SECONDS = 1e-4;

  private final DatasetRoots roots;
  private final DatasetInfo info;
  private final MetadataTables tables;
  private final List<String> cameras;
  private final Map<Integer, EpisodeInfo> episodes;

  private LeRobotMetadata(
      DatasetRoots roots,
      DatasetInfo info,
      MetadataTables tables,
      List<String> cameras,
      Map<Integer, EpisodeInfo> episodes) {
    this.roots = roots;
    this.info = info;
    this.tables = tables;
    this.cameras = List.copyOf(cameras);
    this.episodes = episodes;
  }

  /** Opens the dataset at {@code root}; see {@link #open(Path, Path, Optional)}. */
  public static LeRobotMetadata open(Path root, Optional<? extends Collection<Integer>> filter) {
    return open(root, root, filter);
  }

  /**
   * Opens the dataset whose {@code meta/} is under {@code root} and whose {@code data/} and {@code
   * videos/} are under {@code dataRoot}, links confined to them, every camera kept. With an episode
   * filter only those episodes are kept; each must be listed in the metadata. Whether their files
   * exist is checked where a dataset source is opened ({@link DatasetSource}, {@link
   * SelectedFiles}).
   */
  public static LeRobotMetadata open(
      Path root, Path dataRoot, Optional<? extends Collection<Integer>> filter) {
    return open(DatasetRoots.of(root, dataRoot, SymlinkPolicy.CONFINED), filter, Optional.empty());
  }

  /**
   * Opens the dataset at {@code roots}: info.json and the episodes table are read and checked
   * against each other (see {@link EpisodeLayout}); every existing data and video file of the kept
   * episodes and cameras is checked against the roots' {@link SymlinkPolicy}. Data rows and videos
   * are not read here: see {@link #checkDataFiles()}.
   *
   * @param episodes the episodes to keep (empty: all); each must be listed
   * @param cameras the cameras to keep (empty: all); the others are left out of every episode, so
   *     nothing reads their files
   * @throws IllegalArgumentException for a camera the dataset does not declare, naming its cameras
   */
  public static LeRobotMetadata open(
      DatasetRoots roots,
      Optional<? extends Collection<Integer>> episodes,
      Optional<? extends Collection<String>> cameras) {
    return open(roots, episodes, cameras, m -> {});
  }

  /**
   * As {@link #open(DatasetRoots, Optional, Optional)}, and in the order a user fixes things: the
   * metadata is read, then {@code filesPresent} checks that the kept episodes' files are there (a
   * {@link SelectedFiles} check: files missing or in another folder are the first thing to report,
   * and often what makes the tables look wrong), and only then is the episodes table's first
   * disagreement with itself ({@link EpisodeLayout}) raised.
   */
  public static LeRobotMetadata open(
      DatasetRoots roots,
      Optional<? extends Collection<Integer>> episodes,
      Optional<? extends Collection<String>> cameras,
      java.util.function.Consumer<LeRobotMetadata> filesPresent) {
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
    List<String> keptCameras = keptCameras(info, cameras);
    Map<Integer, EpisodeInfo> all = new LinkedHashMap<>();
    tables.episodes().forEach(e -> all.put(e.index(), e));
    Map<Integer, EpisodeInfo> kept = new TreeMap<>();
    for (int index : episodes.isPresent() ? Set.copyOf(episodes.get()) : all.keySet()) {
      EpisodeInfo e = all.get(index);
      if (e == null) {
        throw new DatasetException.BadMetadata(
            tables.episodesSource(),
            "episode " + index + " is not listed (the dataset has " + all.size() + " episodes)");
      }
      kept.put(index, withCameras(e, keptCameras));
    }
    for (EpisodeInfo e : kept.values()) {
      roots.confineData(e.dataFile());
      e.videos().values().forEach(v -> roots.confineData(v.file()));
    }
    LeRobotMetadata metadata =
        new LeRobotMetadata(
            roots,
            info,
            tables,
            keptCameras,
            java.util.Collections.unmodifiableMap(new LinkedHashMap<>(kept)));
    filesPresent.accept(metadata);
    if (tables.layoutProblem() != null) {
      throw tables.layoutProblem();
    }
    return metadata;
  }

  /** The cameras {@code selection} keeps, in info.json order; all when it is empty. */
  private static List<String> keptCameras(
      DatasetInfo info, Optional<? extends Collection<String>> selection) {
    if (selection.isEmpty()) {
      return info.cameraKeys();
    }
    for (String camera : selection.get()) {
      if (!info.cameraKeys().contains(camera)) {
        throw new IllegalArgumentException(
            "cameras(\""
                + camera
                + "\"): "
                + camera
                + " is not a camera of this dataset; its cameras: "
                + info.cameraKeys());
      }
    }
    return info.cameraKeys().stream().filter(selection.get()::contains).toList();
  }

  private static EpisodeInfo withCameras(EpisodeInfo e, List<String> cameras) {
    Map<String, VideoSpan> videos = new LinkedHashMap<>(e.videos());
    videos.keySet().retainAll(cameras);
    return new EpisodeInfo(
        e.index(), e.length(), e.tasks(), e.datasetFromIndex(), e.dataFile(), videos);
  }

  /**
   * Checks every data file of the kept episodes (footer, index columns): declared features, and
   * exactly the table's rows for its episodes, contiguous and in order ({@link
   * DatasetException.BadMetadata} otherwise); image sizes via {@link ImageSizes}. Runs before
   * streaming, so a bad episode fails up front. Reads the files on every call.
   *
   * @param rule which frame a row gets: {@link TimestampRule#STRICT} refuses a timestamp off {@code
   *     frame_index / fps}; {@link TimestampRule#LEROBOT} needs timestamps for video cameras
   * @param toleranceSeconds how far a timestamp may be from its frame ({@code tolerance_s})
   * @return what the kept episodes' timestamps say
   */
  public TimestampReport checkDataFiles(TimestampRule rule, double toleranceSeconds) {
    if (!(toleranceSeconds > 0)) {
      throw new IllegalArgumentException(
          "toleranceSeconds must be positive, got " + toleranceSeconds);
    }
    Path tasksFile = roots.metaFile(info.majorVersion() == 3 ? "tasks.parquet" : "tasks.jsonl");
    DataFileRows.Checked checked =
        DataFileRows.check(
            info,
            episodes.values(),
            tables.episodes(),
            tables.episodesSource(),
            new DataFileRows.Tasks(tables.tasks().keySet(), tasksFile.toString()),
            new DataFileRows.Timing(toleranceSeconds, rule == TimestampRule.LEROBOT));
    Map<Integer, EpisodeTimestamps> kept = new TreeMap<>();
    for (EpisodeInfo e : episodes.values()) {
      EpisodeTimestamps t = checked.timestamps().get(e.index());
      if (t != null) {
        kept.put(e.index(), t);
      }
    }
    TimestampReport report =
        new TimestampReport(kept, info.fps(), rule, !videoCameras().isEmpty(), checked.rows());
    if (rule == TimestampRule.STRICT) {
      for (EpisodeTimestamps t : kept.values()) {
        if (t.beyondTolerance().present()) {
          throw new DatasetException.BadMetadata(
              episode(t.episode()).dataFile().toString(),
              TimestampRefusals.strict(t, info.fps(), toleranceSeconds));
        }
      }
    }
    if (rule == TimestampRule.LEROBOT && !videoCameras().isEmpty()) {
      for (EpisodeTimestamps t : kept.values()) {
        if (t.convention() == EpisodeTimestamps.Convention.NONE
            && episode(t.episode()).length() > 0) {
          throw new DatasetException.BadMetadata(
              episode(t.episode()).dataFile().toString(), TimestampRefusals.noTimestamps(t));
        }
      }
    }
    ImageSizes.checkFirstImages(this);
    return report;
  }

  /**
   * As {@link #checkDataFiles(TimestampRule, double)} with LeRobot's default tolerance, {@value
   * #DEFAULT_TOLERANCE_SECONDS} s.
   */
  public TimestampReport checkDataFiles(TimestampRule rule) {
    return checkDataFiles(rule, DEFAULT_TOLERANCE_SECONDS);
  }

  /** As {@link #checkDataFiles(TimestampRule)} with {@link TimestampRule#POSITION}. */
  public TimestampReport checkDataFiles() {
    return checkDataFiles(TimestampRule.POSITION);
  }

  /**
   * This dataset with the LeRobot default features info.json leaves out ({@code timestamp}, {@code
   * frame_index}, {@code episode_index}, {@code index}, {@code task_index}) declared as LeRobot
   * declares them, where the first kept episode's data file has the column: LeRobot reads those
   * columns whatever info.json says, and rows are placed by {@code episode_index}. The features map
   * then lists them after the declared ones, in LeRobot's order ({@link
   * DatasetInfo#assumedDefaults()}); which were assumed is logged once. Every other data file must
   * then have them too ({@link #checkDataFiles}). Reads one Parquet footer; returns this dataset
   * when nothing is left out. Called where a dataset source is opened ({@link LocalDataset}, the
   * Hub's, once its data files are here).
   */
  public LeRobotMetadata withDefaultFeatures() {
    if (episodes.isEmpty()) {
      return this;
    }
    Path first = episodes.values().iterator().next().dataFile();
    List<String> columns;
    try (org.apache.arrow.memory.BufferAllocator allocator =
        new org.apache.arrow.memory.RootAllocator()) {
      columns =
          ParquetFrames.schema(allocator, first).getFields().stream()
              .map(org.apache.arrow.vector.types.pojo.Field::getName)
              .toList();
    }
    List<Feature> assumed = DefaultFeatures.omitted(info, columns);
    if (assumed.isEmpty()) {
      return this;
    }
    LOG.info(
        "{}: info.json leaves out LeRobot's default features {}, which the data files have:"
            + " read as LeRobot declares them ({})",
        roots.metaFile("info.json"),
        assumed.stream().map(Feature::name).toList(),
        String.join(", ", assumed.stream().map(DefaultFeatures::describe).toList()));
    return new LeRobotMetadata(roots, info.withAssumedDefaults(assumed), tables, cameras, episodes);
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

  /**
   * The cameras kept (all, or those selected; video and image features), in info.json order: the
   * only ones whose files are checked, listed and read.
   */
  public List<String> cameras() {
    return cameras;
  }

  /**
   * The kept cameras stored as videos (not image features, whose frames are in the data files), in
   * info.json order.
   */
  public List<String> videoCameras() {
    return cameras.stream().filter(c -> info.features().get(c).isVideo()).toList();
  }

  /**
   * The kept video cameras that are depth maps ({@code video.is_depth_map}), in info.json order.
   */
  public List<String> depthCameras() {
    return videoCameras().stream().filter(c -> info.features().get(c).isDepthMap()).toList();
  }

  /**
   * The kept cameras stored as image features (frames inside the data files), in info.json order.
   */
  public List<String> imageCameras() {
    return cameras.stream().filter(c -> info.features().get(c).isImage()).toList();
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

  /**
   * How many camera spans of the episodes table (every listed episode) record {@code to_timestamp}
   * as the episode's end, and how many as its last frame's time: both place the same frames.
   */
  public Map<ToTimestamp, Integer> toTimestampConventions() {
    return tables.toTimestamps();
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
   * The distinct video files of the kept episodes and cameras: camera by camera (info.json order),
   * each camera's files in path order (a v3.0 file holds many episodes; a v2.1 file one).
   */
  public List<Path> videoFiles() {
    List<Path> out = new ArrayList<>();
    for (String camera : videoCameras()) { // image features have no files of their own
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
    if (!videoCameras().contains(videoKey)) {
      throw new IllegalArgumentException(
          videoKey
              + (imageCameras().contains(videoKey)
                  ? " is an image feature: its frames are in the data files, not in a video"
                  : " is not a kept video camera; video cameras: " + videoCameras()));
    }
    return episode(episode).video(videoKey).file();
  }
}
