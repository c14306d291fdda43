package org.robostream.dataset;

import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks data files against the metadata by their footer and their index columns alone ({@code
 * episode_index}, and {@code frame_index}, {@code index} and {@code timestamp} where declared:
 * scanned batch by batch): the columns are the declared features' ({@link FeatureColumns}), each
 * file holds, contiguous, exactly {@code length} rows of every episode the table puts in it, and
 * rows of no other episode, and each episode's rows are its frames in order ({@link
 * EpisodeRowChecks}). Stateless.
 */
final class DataFileRows {
  private static final Logger LOG = LoggerFactory.getLogger(DataFileRows.class);

  private DataFileRows() {}

  /**
   * @param info the declared features, which each file's columns must match
   * @param kept the episodes whose data files are checked
   * @param listed every episode of the table (a checked file may hold episodes not kept)
   * @param table the episodes table, for messages
   * @param tasks the task indices every row's {@code task_index} must be one of
   * @param timing how the timestamps are classified, and whether their values are kept
   * @return the timestamps of every kept episode of the checked files
   */
  static Checked check(
      DatasetInfo info,
      Collection<EpisodeInfo> kept,
      List<EpisodeInfo> listed,
      String table,
      Tasks tasks,
      Timing timing) {
    Map<Path, Map<Integer, EpisodeInfo>> byFile = new LinkedHashMap<>();
    for (EpisodeInfo e : listed) {
      byFile.computeIfAbsent(e.dataFile(), f -> new LinkedHashMap<>()).put(e.index(), e);
    }
    Map<Integer, Path> fileOf = new HashMap<>();
    listed.forEach(e -> fileOf.put(e.index(), e.dataFile()));
    Map<Integer, EpisodeTimestamps> timestamps = new HashMap<>();
    Map<Integer, double[]> rows = new HashMap<>();
    java.util.Set<String> casts = new java.util.TreeSet<>();
    try (BufferAllocator allocator = new RootAllocator()) {
      java.util.Set<Integer> keptIndices = new java.util.HashSet<>();
      kept.forEach(e -> keptIndices.add(e.index()));
      for (Path file : kept.stream().map(EpisodeInfo::dataFile).distinct().toList()) {
        EpisodeRowChecks checked =
            checkFile(
                allocator,
                info,
                file,
                byFile.get(file),
                keptIndices,
                fileOf,
                table,
                tasks,
                timing,
                casts);
        timestamps.putAll(checked.timestamps());
        rows.putAll(checked.rowTimestamps());
      }
    }
    if (!casts.isEmpty()) {
      // Said once per dataset: the values are not in doubt, only their stored precision.
      LOG.info(
          "{}: columns stored in another type than info.json declares are delivered as declared,"
              + " as LeRobot casts them: {}",
          table,
          String.join(", ", casts));
    }
    return new Checked(timestamps, rows);
  }

  /** The task indices a tasks table lists, and the table, for messages. */
  record Tasks(java.util.Set<Integer> indices, String source) {}

  /**
   * How timestamps are read: {@code tolerance} is how far a row's timestamp may be from {@code
   * frame_index / fps} before {@link TimestampRule#STRICT} names it; {@code keepRows} keeps every
   * row's value, which {@link TimestampRule#LEROBOT} picks frames by.
   */
  record Timing(double tolerance, boolean keepRows) {}

  /** What the check found: each kept episode's timestamps, and their values by row where kept. */
  record Checked(Map<Integer, EpisodeTimestamps> timestamps, Map<Integer, double[]> rows) {}

  /** Rows of a variable-length list column whose widths are checked when the dataset opens. */
  private static final int LIST_ROWS_CHECKED = 64;

  /**
   * A declared vector stored as a variable-length list (a fixed-size list's width is in the footer,
   * checked by {@link FeatureColumns}) must have the declared width on every row; the first rows of
   * each file are checked here, so a declaration of another shape is refused when the dataset opens
   * (every row is checked again as it is read).
   */
  private static void checkFirstRowsOfListColumns(
      BufferAllocator allocator, DatasetInfo info, Schema schema, Path file) {
    List<String> lists = new java.util.ArrayList<>();
    for (Field field : schema.getFields()) {
      Feature f = info.features().get(field.getName());
      boolean variable =
          field.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.List
              || field.getType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.LargeList;
      // Language and other nested columns are one JSON text per row: a row holds as many
      // messages as it holds, whatever the declared shape [1] says.
      if (f != null
          && variable
          && !f.isImage()
          && !f.isVideo()
          && !FeatureColumns.deliveredAsJson(f, field)) {
        lists.add(field.getName());
      }
    }
    if (lists.isEmpty()) {
      return;
    }
    ParquetFrames.scan(
        allocator,
        file,
        lists,
        LIST_ROWS_CHECKED,
        Long.MAX_VALUE,
        "rows",
        batch -> {
          for (String column : lists) {
            FieldVector v = batch.getVector(column);
            long declared = info.features().get(column).elementCount();
            for (int row = 0; row < Math.min(batch.getRowCount(), LIST_ROWS_CHECKED); row++) {
              Object value = v.getObject(row);
              int width = value instanceof List<?> l ? l.size() : -1;
              if (width != declared) {
                throw new DatasetException.BadMetadata(
                    file.toString(),
                    "column "
                        + column
                        + " row "
                        + row
                        + " has "
                        + width
                        + " values but info.json declares "
                        + declared
                        + " ("
                        + info.features().get(column).dtype()
                        + " "
                        + java.util.Arrays.toString(info.features().get(column).shape())
                        + ")");
              }
            }
          }
          return false; // the first batch only
        });
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

  private static EpisodeRowChecks checkFile(
      BufferAllocator allocator,
      DatasetInfo info,
      Path file,
      Map<Integer, EpisodeInfo> expected,
      java.util.Set<Integer> kept,
      Map<Integer, Path> fileOf,
      String table,
      Tasks tasks,
      Timing timing,
      java.util.Set<String> casts) {
    String name = file.toString();
    Schema schema = ParquetFrames.schema(allocator, file);
    casts.addAll(FeatureColumns.check(info, schema, name));
    checkFirstRowsOfListColumns(allocator, info, schema, file);
    requireDeclaredEpisodeIndex(info, schema, name);
    long rows = expected.values().stream().mapToLong(EpisodeInfo::length).sum();
    EpisodeRowRanges ranges = new EpisodeRowRanges(name);
    EpisodeRowChecks rowChecks =
        new EpisodeRowChecks(
            name,
            info.fps(),
            expected,
            kept,
            tasks.indices(),
            tasks.source(),
            timing.tolerance(),
            timing.keepRows());
    List<String> columns = new java.util.ArrayList<>(List.of(EpisodeRowRanges.COLUMN));
    columns.addAll(
        EpisodeRowChecks.columnsToRead(
            info, schema.getFields().stream().map(Field::getName).toList()));
    // Slack over the expected count keeps the per-episode message for a few rows too many, while
    // a file declaring billions of rows is still abandoned early.
    ParquetFrames.scan(
        allocator,
        file,
        columns,
        rows + Math.max(rows, 1 << 16),
        "rows (its episodes' lengths in " + table + " add up to " + rows + ")",
        batch -> {
          ranges.add(batch.getVector(EpisodeRowRanges.COLUMN));
          rowChecks.add(batch);
        });
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
    if (rowChecks.problem() != null) {
      throw rowChecks.problem();
    }
    return rowChecks;
  }
}
