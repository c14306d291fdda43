package org.robostream.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The v2.1 layout: {@code tasks.jsonl}, {@code episodes.jsonl}, {@code episodes_stats.jsonl}; one
 * Parquet and one MP4 per episode, every video starting at t = 0. Stateless.
 */
final class V21MetadataReader {
  private V21MetadataReader() {}

  static MetadataTables read(Path metaRoot, Path dataRoot, DatasetInfo info) {
    Path meta = metaRoot.resolve("meta");
    Map<Integer, String> tasks = new LinkedHashMap<>();
    Path tasksFile = meta.resolve("tasks.jsonl");
    List<JsonNode> taskRows = MetadataFiles.jsonl(tasksFile);
    for (int i = 0; i < taskRows.size(); i++) {
      JsonNode row = taskRows.get(i);
      tasks.put((int) MetadataFiles.requiredLong(row, "task_index", tasksFile, i + 1),
          row.path("task").asText());
    }
    Path episodesFile = meta.resolve("episodes.jsonl");
    List<JsonNode> rows = MetadataFiles.jsonl(episodesFile);
    List<EpisodeInfo> episodes = new ArrayList<>(rows.size());
    long from = 0;
    for (int i = 0; i < rows.size(); i++) {
      JsonNode row = rows.get(i);
      int index = (int) MetadataFiles.requiredLong(row, "episode_index", episodesFile, i + 1);
      int length = (int) MetadataFiles.requiredLong(row, "length", episodesFile, i + 1);
      List<String> episodeTasks = new ArrayList<>();
      row.path("tasks").forEach(t -> episodeTasks.add(t.asText()));
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("episode_index", index);
      fields.put("episode_chunk", index / Math.max(1, info.chunksSize()));
      Path data = info.dataPath().resolve(dataRoot, fields);
      Map<String, VideoSpan> videos = new LinkedHashMap<>();
      for (String camera : info.videoKeys()) {
        fields.put("video_key", camera);
        Path video = info.videoPath().resolve(dataRoot, fields);
        videos.put(camera, new VideoSpan(camera, video, 0.0, length / (double) info.fps(), 0,
            length));
      }
      episodes.add(new EpisodeInfo(index, length, episodeTasks, from, data, videos));
      from += length;
    }
    Map<Integer, JsonNode> episodeStats = new LinkedHashMap<>();
    Path statsFile = meta.resolve("episodes_stats.jsonl");
    if (java.nio.file.Files.isRegularFile(statsFile)) {
      List<JsonNode> statRows = MetadataFiles.jsonl(statsFile);
      for (int i = 0; i < statRows.size(); i++) {
        JsonNode row = statRows.get(i);
        episodeStats.put((int) MetadataFiles.requiredLong(row, "episode_index", statsFile, i + 1),
            row.path("stats"));
      }
    }
    return new MetadataTables(tasks, episodes, episodesFile.toString(),
        MetadataFiles.optionalJson(meta.resolve("stats.json")), episodeStats);
  }
}
