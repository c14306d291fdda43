package org.robostream.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The v2.1 layout, and v2.0 (the same without {@code episodes_stats.jsonl}): {@code tasks.jsonl},
 * {@code episodes.jsonl}, {@code episodes_stats.jsonl} when present; one Parquet and one MP4 per
 * episode, every video starting at t = 0. Stateless.
 */
final class V21MetadataReader {
  /** The fields the templates are filled with, as LeRobot v2.x fills them. */
  private static final List<String> DATA_FIELDS = List.of("episode_chunk", "episode_index");

  private static final List<String> VIDEO_FIELDS =
      List.of("episode_chunk", "video_key", "episode_index");

  private V21MetadataReader() {}

  static MetadataTables read(DatasetRoots roots, DatasetInfo info) {
    info.requireTemplateFields(DATA_FIELDS, VIDEO_FIELDS);
    Path tasksFile = roots.metaFile("tasks.jsonl");
    Map<Integer, String> tasks = new LinkedHashMap<>();
    List<JsonNode> taskRows = MetadataFiles.jsonl(tasksFile);
    for (int i = 0; i < taskRows.size(); i++) {
      JsonNode row = taskRows.get(i);
      int t =
          (int)
              MetadataFiles.wholeNumber(
                  row.get("task_index"),
                  "task_index of row " + (i + 1),
                  tasksFile.toString(),
                  0,
                  Integer.MAX_VALUE);
      if (tasks.put(t, row.path("task").asText()) != null) {
        throw new DatasetException.BadMetadata(
            tasksFile.toString(), "task_index " + t + " is listed twice");
      }
    }
    Path episodesFile = roots.metaFile("episodes.jsonl");
    String source = episodesFile.toString();
    List<JsonNode> rows = MetadataFiles.jsonl(episodesFile);
    // The global frame index of an episode's first frame counts the frames of the episodes of
    // lower index, whatever the order of the lines.
    List<int[]> indexAndLength = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      JsonNode row = rows.get(i);
      int index =
          (int)
              MetadataFiles.wholeNumber(
                  row.get("episode_index"),
                  "episode_index of" + " row " + (i + 1),
                  source,
                  0,
                  Integer.MAX_VALUE);
      int length =
          (int)
              MetadataFiles.wholeNumber(
                  row.get("length"),
                  "episode " + index + " length",
                  source,
                  1,
                  EpisodeLayout.MAX_EPISODE_FRAMES);
      indexAndLength.add(new int[] {index, length, i});
    }
    indexAndLength.sort(java.util.Comparator.comparingInt(r -> r[0]));
    List<EpisodeLayout.Row> listed = new ArrayList<>(rows.size());
    long from = 0;
    for (int[] r : indexAndLength) {
      listed.add(row(roots, info, r[0], r[1], rows.get(r[2]).path("tasks"), from, source));
      from += r[1];
    }
    Map<Integer, JsonNode> episodeStats = new LinkedHashMap<>();
    Path statsFile = roots.metaFile("episodes_stats.jsonl");
    if (Files.exists(statsFile)) {
      List<JsonNode> statRows = MetadataFiles.jsonl(statsFile);
      for (int i = 0; i < statRows.size(); i++) {
        JsonNode row = statRows.get(i);
        episodeStats.put(
            (int)
                MetadataFiles.wholeNumber(
                    row.get("episode_index"),
                    "episode_index of row " + (i + 1),
                    statsFile.toString(),
                    0,
                    Integer.MAX_VALUE),
            row.path("stats"));
      }
    }
    EpisodeLayout.Placed placed = EpisodeLayout.place(listed, info, false);
    return new MetadataTables(
        tasks,
        placed.episodes(),
        source,
        MetadataFiles.optionalJson(roots.metaFile("stats.json")),
        episodeStats,
        placed.problem(),
        placed.toTimestamps());
  }

  /** An episode's files by the templates; its video spans are the whole files. */
  private static EpisodeLayout.Row row(
      DatasetRoots roots,
      DatasetInfo info,
      int index,
      int length,
      JsonNode tasks,
      long datasetFromIndex,
      String table) {
    List<String> episodeTasks = new ArrayList<>();
    tasks.forEach(t -> episodeTasks.add(t.asText()));
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("episode_index", index);
    fields.put("episode_chunk", index / info.chunksSize());
    Path data = info.dataPath().resolve(roots.dataRoot(), fields);
    Map<String, EpisodeLayout.Placement> videos = new LinkedHashMap<>();
    for (String camera : info.videoKeys()) {
      fields.put("video_key", camera);
      videos.put(
          camera,
          new EpisodeLayout.Placement(
              info.videoPath().resolve(roots.dataRoot(), fields),
              index / info.chunksSize(),
              index,
              0.0,
              length / (double) info.fps()));
    }
    return new EpisodeLayout.Row(
        index, length, episodeTasks, datasetFromIndex, data, videos, table);
  }
}
