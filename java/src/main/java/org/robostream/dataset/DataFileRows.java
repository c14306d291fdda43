package org.robostream.dataset;

import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks data files against the metadata by their footer and their {@code episode_index} column
 * alone (one integer column, scanned batch by batch): the columns are the declared features'
 * ({@link FeatureColumns}), and each file holds, contiguous, exactly {@code length} rows of every
 * episode the table puts in it, and rows of no other episode. Stateless.
 */
final class DataFileRows {
  private static final Logger LOG = LoggerFactory.getLogger(DataFileRows.class);

  private DataFileRows() {}

  /**
   * @param info the declared features, which each file's columns must match
   * @param kept the episodes whose data files are checked
   * @param listed every episode of the table (a checked file may hold episodes not kept)
   * @param table the episodes table, for messages
   */
  static void check(
      DatasetInfo info, Collection<EpisodeInfo> kept, List<EpisodeInfo> listed, String table) {
    Map<Path, Map<Integer, EpisodeInfo>> byFile = new LinkedHashMap<>();
    for (EpisodeInfo e : listed) {
      byFile.computeIfAbsent(e.dataFile(), f -> new LinkedHashMap<>()).put(e.index(), e);
    }
    Map<Integer, Path> fileOf = new HashMap<>();
    listed.forEach(e -> fileOf.put(e.index(), e.dataFile()));
    try (BufferAllocator allocator = new RootAllocator()) {
      for (Path file : kept.stream().map(EpisodeInfo::dataFile).distinct().toList()) {
        checkFile(allocator, info, file, byFile.get(file), fileOf, table);
      }
    }
  }

  /**
   * Rows are placed by their {@code episode_index}, and only declared columns are read (as LeRobot
   * reads them): a file without the column, or info.json without its declaration, is refused here,
   * saying which. Other undeclared columns are left out, as LeRobot leaves them, with a debug line.
   */
  private static void requireDeclaredEpisodeIndex(DatasetInfo info, Schema schema, String name) {
    List<String> columns = schema.getFields().stream().map(Field::getName).toList();
    if (!columns.contains(EpisodeRowRanges.COLUMN)) {
      throw new DatasetException.BadMetadata(name, "has no " + EpisodeRowRanges.COLUMN + " column");
    }
    if (!info.features().containsKey(EpisodeRowRanges.COLUMN)) {
      throw new DatasetException.BadMetadata(
          name,
          "has an "
              + EpisodeRowRanges.COLUMN
              + " column, but it is not declared in info.json (features."
              + EpisodeRowRanges.COLUMN
              + ", int64 [1]): only declared columns are read, and rows are placed by it");
    }
    List<String> undeclared =
        columns.stream().filter(c -> !info.features().containsKey(c)).toList();
    if (!undeclared.isEmpty()) {
      LOG.debug("{}: columns not declared in info.json are not read: {}", name, undeclared);
    }
  }

  private static void checkFile(
      BufferAllocator allocator,
      DatasetInfo info,
      Path file,
      Map<Integer, EpisodeInfo> expected,
      Map<Integer, Path> fileOf,
      String table) {
    String name = file.toString();
    Schema schema = ParquetFrames.schema(allocator, file);
    FeatureColumns.check(info, schema, name);
    requireDeclaredEpisodeIndex(info, schema, name);
    long rows = expected.values().stream().mapToLong(EpisodeInfo::length).sum();
    EpisodeRowRanges ranges = new EpisodeRowRanges(name);
    // Slack over the expected count keeps the per-episode message for a few rows too many, while
    // a file declaring billions of rows is still abandoned early.
    ParquetFrames.scan(
        allocator,
        file,
        List.of(EpisodeRowRanges.COLUMN),
        rows + Math.max(rows, 1 << 16),
        "rows (its episodes' lengths in " + table + " add up to " + rows + ")",
        batch -> ranges.add(batch.getVector(EpisodeRowRanges.COLUMN)));
    for (Map.Entry<Integer, int[]> r : ranges.ranges().entrySet()) {
      int episode = r.getKey();
      int count = r.getValue()[1] - r.getValue()[0];
      EpisodeInfo e = expected.get(episode);
      if (e == null) {
        Path other = fileOf.get(episode);
        throw new DatasetException.BadMetadata(
            name,
            "holds "
                + count
                + " rows of episode "
                + episode
                + ", which "
                + table
                + (other == null ? " does not list" : " puts in " + other));
      }
      if (count != e.length()) {
        throw new DatasetException.BadMetadata(
            name,
            "episode "
                + episode
                + " has "
                + count
                + " rows here but its length in "
                + table
                + " is "
                + e.length());
      }
    }
    for (EpisodeInfo e : expected.values()) {
      if (!ranges.ranges().containsKey(e.index())) {
        throw new DatasetException.BadMetadata(
            name,
            "holds no rows of episode "
                + e.index()
                + ", which "
                + table
                + " puts here with length "
                + e.length());
      }
    }
  }
}
