package org.robostream.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a layout reader ({@link V21MetadataReader}, {@link V30MetadataReader}) gets out of {@code
 * meta/}: tasks, every listed episode (unfiltered, in table order) and the statistics.
 *
 * @param episodesSource the file (or folder) the episodes came from, for messages
 * @param stats {@code meta/stats.json} when present
 * @param episodeStats v2.1 {@code episodes_stats.jsonl} per episode (empty for v3.0, where the
 *     per-episode stats are the episode table's {@code stats/*} columns, which are not loaded)
 * @param layoutProblem the table's first disagreement with itself ({@link EpisodeLayout}), or null:
 *     raised by {@link LeRobotMetadata#open} after the check for missing files
 * @param toTimestamps how many camera spans used each {@code to_timestamp} convention
 */
record MetadataTables(
    Map<Integer, String> tasks,
    List<EpisodeInfo> episodes,
    String episodesSource,
    Optional<JsonNode> stats,
    Map<Integer, JsonNode> episodeStats,
    DatasetException layoutProblem,
    Map<ToTimestamp, Integer> toTimestamps) {}
