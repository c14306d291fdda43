package org.robostream.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The metadata of a local LeRobot dataset: info.json, tasks and episodes, and the files each
 * episode lives in. This slice reads the v2.1 layout (jsonl metadata, one Parquet and one MP4 per
 * episode); v3.0 episode tables are Parquet files and arrive with the Parquet reader. Immutable
 * after {@link #open}, thread-safe.
 */
public final class LeRobotMetadata {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path root;
  private final DatasetInfo info;
  private final Map<Integer, String> tasks;
  private final Map<Integer, EpisodeInfo> episodes;

  private LeRobotMetadata(Path root, DatasetInfo info, Map<Integer, String> tasks,
      Map<Integer, EpisodeInfo> episodes) {
    this.root = root;
    this.info = info;
    this.tasks = tasks;
    this.episodes = episodes;
  }

  /**
   * Opens the dataset at {@code root}. With an episode filter, only those episodes are kept, each
   * must be listed in the metadata, and its data and video files must exist.
   */
  public static LeRobotMetadata open(Path root, Optional<Collection<Integer>> episodeFilter) {
    Path meta = root.resolve("meta");
    DatasetInfo info = DatasetInfo.read(meta.resolve("info.json"));
    if (info.majorVersion() != 2) {
      throw new DatasetException.BadMetadata(meta.resolve("info.json").toString(),
          "codebase_version " + info.codebaseVersion() + " is not supported by this reader yet"
              + " (v2.x only; v3.0 needs the Parquet episode tables)");
    }
    Map<Integer, String> tasks = new LinkedHashMap<>();
    for (JsonNode row : jsonl(meta.resolve("tasks.jsonl"))) {
      tasks.put(row.path("task_index").asInt(), row.path("task").asText());
    }
    Map<Integer, EpisodeInfo> all = new LinkedHashMap<>();
    for (JsonNode row : jsonl(meta.resolve("episodes.jsonl"))) {
      List<String> episodeTasks = new ArrayList<>();
      row.path("tasks").forEach(t -> episodeTasks.add(t.asText()));
      EpisodeInfo e = new EpisodeInfo(row.path("episode_index").asInt(-1),
          row.path("length").asInt(-1), episodeTasks);
      all.put(e.index(), e);
    }
    Map<Integer, EpisodeInfo> kept = all;
    if (episodeFilter.isPresent()) {
      kept = new LinkedHashMap<>();
      for (int index : Set.copyOf(episodeFilter.get()).stream().sorted().toList()) {
        EpisodeInfo e = all.get(index);
        if (e == null) {
          throw new DatasetException.BadMetadata(meta.resolve("episodes.jsonl").toString(),
              "episode " + index + " is not listed (the dataset has " + all.size() + ")");
        }
        kept.put(index, e);
      }
    }
    LeRobotMetadata m = new LeRobotMetadata(root, info, Map.copyOf(tasks), kept);
    if (episodeFilter.isPresent()) {
      kept.keySet().forEach(m::requireFiles);
    }
    return m;
  }

  private static List<JsonNode> jsonl(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new DatasetException.MissingFile(file.toString(), "metadata file does not exist");
    } catch (IOException e) {
      throw new DatasetException.BadMetadata(file.toString(), "cannot read: " + e.getMessage(), e);
    }
    List<JsonNode> rows = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty()) {
        continue;
      }
      try {
        rows.add(JSON.readTree(line));
      } catch (IOException e) {
        throw new DatasetException.BadMetadata(file.toString(), "line " + (i + 1)
            + " is not JSON: " + e.getMessage(), e);
      }
    }
    return rows;
  }

  public Path root() {
    return root;
  }

  public DatasetInfo info() {
    return info;
  }

  /** Episodes kept (all, or those of the filter), ascending by index. */
  public List<EpisodeInfo> episodes() {
    return List.copyOf(episodes.values());
  }

  /** Every task, by task index. */
  public Map<Integer, String> tasks() {
    return new java.util.TreeMap<>(tasks);
  }

  public String task(int taskIndex) {
    String t = tasks.get(taskIndex);
    if (t == null) {
      throw new DatasetException.BadMetadata(root.resolve("meta/tasks.jsonl").toString(),
          "no task with index " + taskIndex);
    }
    return t;
  }

  private Map<String, Object> fields(int episode) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("episode_index", episode);
    f.put("episode_chunk", episode / Math.max(1, info.chunksSize()));
    return f;
  }

  /** The Parquet file holding the frames of {@code episode}. */
  public Path dataFile(int episode) {
    return info.dataPath().resolve(root, fields(episode));
  }

  /** The MP4 of camera {@code videoKey} for {@code episode}. */
  public Path videoFile(int episode, String videoKey) {
    Feature f = info.features().get(videoKey);
    if (f == null || !f.isVideo()) {
      throw new IllegalArgumentException(videoKey + " is not a video feature; cameras: "
          + info.videoKeys());
    }
    Map<String, Object> fields = fields(episode);
    fields.put("video_key", videoKey);
    return info.videoPath().resolve(root, fields);
  }

  /** Throws {@link DatasetException.MissingFile} naming the first file of the episode missing. */
  public void requireFiles(int episode) {
    List<Path> files = new ArrayList<>();
    files.add(dataFile(episode));
    for (String camera : info.videoKeys()) {
      files.add(videoFile(episode, camera));
    }
    for (Path p : files) {
      if (!Files.isRegularFile(p)) {
        throw new DatasetException.MissingFile(p.toString(), "file of episode " + episode
            + " does not exist");
      }
    }
  }
}
