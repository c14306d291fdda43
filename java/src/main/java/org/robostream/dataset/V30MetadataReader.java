package org.robostream.dataset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The v3.0 layout: {@code tasks.parquet}, {@code episodes/*}{@code /*.parquet} (read without their
 * {@code stats/*} columns) and {@code stats.json}; episodes share data and video files, located by
 * chunk/file indices and, for videos, from/to timestamps (checked by {@link EpisodeLayout}).
 * Stateless.
 */
final class V30MetadataReader {
  private static final Logger LOG = LoggerFactory.getLogger(V30MetadataReader.class);

  /** Rows a metadata table may have: far above any real dataset's episode or task count. */
  private static final long MAX_TABLE_ROWS = 10_000_000;

  /**
   * The fields the templates are filled with: LeRobot v3.0's ({@code episode_index} in {@code
   * data_path} is robostream's addition, for a file per episode).
   */
  private static final List<String> DATA_FIELDS =
      List.of("chunk_index", "file_index", "episode_index");

  private static final List<String> VIDEO_FIELDS =
      List.of("video_key", "chunk_index", "file_index");

  private V30MetadataReader() {}

  static MetadataTables read(DatasetRoots roots, DatasetInfo info) {
    info.requireTemplateFields(DATA_FIELDS, VIDEO_FIELDS);
    try (BufferAllocator allocator = new RootAllocator()) {
      Map<Integer, String> tasks = readTasks(allocator, roots.metaFile("tasks.parquet"));
      Path episodesDir = roots.metaFile("episodes");
      List<EpisodeLayout.Row> rows = new ArrayList<>();
      for (Path file : episodeFiles(episodesDir)) {
        roots.confineMeta(file);
        readEpisodes(allocator, file, info, roots.dataRoot(), rows);
      }
      EpisodeLayout.Placed placed = EpisodeLayout.place(rows, info, true);
      return new MetadataTables(
          tasks,
          placed.episodes(),
          episodesDir.toString(),
          MetadataFiles.optionalJson(roots.metaFile("stats.json")),
          Map.of(),
          placed.problem(),
          placed.toTimestamps());
    }
  }

  /**
   * The episodes table's files exactly as LeRobot globs them, {@code meta/episodes/*}{@code
   * /*.parquet}, in path order: any other file there (a stray copy at the top, a backup folder one
   * level deeper, a checksum next to the table) is not part of the table and is ignored, with a
   * debug line each.
   */
  private static List<Path> episodeFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new DatasetException.MissingFile(
          dir.toString(), "episodes table folder does not" + " exist");
    }
    try (Stream<Path> walk = Files.walk(dir, 2)) {
      List<Path> files = new ArrayList<>();
      for (Path p : walk.sorted().toList()) {
        if (isTableFile(dir, p)) {
          files.add(p);
        } else if (Files.isRegularFile(p)) {
          LOG.debug("{}: not an episodes table file (meta/episodes/*/*.parquet); ignored", p);
        }
      }
      if (files.isEmpty()) {
        throw new DatasetException.MissingFile(
            dir.toString(), "no episodes Parquet file (LeRobot reads meta/episodes/*/*.parquet)");
      }
      return files;
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new DatasetException.BadMetadata(
          dir.toString(), "cannot list (" + e.getClass().getSimpleName() + ")", e);
    }
  }

  private static boolean isTableFile(Path dir, Path p) {
    return dir.relativize(p).getNameCount() == 2
        && p.getFileName().toString().endsWith(".parquet")
        && Files.isRegularFile(p);
  }

  private static Map<Integer, String> readTasks(BufferAllocator allocator, Path file) {
    String name = file.toString();
    List<String> columns = ParquetFrames.fileColumns(allocator, file);
    String textColumn =
        columns.contains("task")
            ? "task"
            : columns.contains("__index_level_0__") ? "__index_level_0__" : null;
    if (textColumn == null || !columns.contains("task_index")) {
      throw new DatasetException.BadMetadata(
          name,
          "tasks table needs task_index and"
              + " task (or a pandas index column); it has "
              + columns);
    }
    Map<Integer, String> tasks = new LinkedHashMap<>();
    try (VectorSchemaRoot root =
        ParquetFrames.read(
            allocator,
            file,
            List.of("task_index", textColumn),
            MAX_TABLE_ROWS,
            "tasks a table may list")) {
      FieldVector index = root.getVector("task_index");
      FieldVector text = root.getVector(textColumn);
      for (int row = 0; row < root.getRowCount(); row++) {
        int t = (int) ArrowCells.wholeAt(index, row, name, "task_index", 0, Integer.MAX_VALUE);
        if (tasks.put(t, ArrowCells.stringAt(text, row)) != null) {
          throw new DatasetException.BadMetadata(name, "task_index " + t + " is listed twice");
        }
      }
    }
    return tasks;
  }

  private static void readEpisodes(
      BufferAllocator allocator,
      Path file,
      DatasetInfo info,
      Path dataRoot,
      List<EpisodeLayout.Row> out) {
    String name = file.toString();
    List<String> columns =
        ParquetFrames.fileColumns(allocator, file).stream()
            .filter(c -> !c.startsWith("stats/"))
            .toList();
    try (VectorSchemaRoot root =
        ParquetFrames.read(allocator, file, columns, MAX_TABLE_ROWS, "episodes a table may list")) {
      FieldVector index = ArrowCells.column(root, "episode_index", name);
      FieldVector length = ArrowCells.column(root, "length", name);
      FieldVector tasks = root.getVector("tasks");
      FieldVector from = root.getVector("dataset_from_index");
      FieldVector to = root.getVector("dataset_to_index");
      // Required columns, also of a table without rows: read per row below.
      ArrowCells.column(root, "data/chunk_index", name);
      ArrowCells.column(root, "data/file_index", name);
      long cumulative = out.stream().mapToLong(EpisodeLayout.Row::length).sum();
      for (int row = 0; row < root.getRowCount(); row++) {
        int e = (int) ArrowCells.wholeAt(index, row, name, "episode_index", 0, Integer.MAX_VALUE);
        String episode = "episode " + e + " ";
        int frames =
            (int)
                ArrowCells.wholeAt(
                    length, row, name, episode + "length", 1, EpisodeLayout.MAX_EPISODE_FRAMES);
        long first =
            from == null
                ? cumulative
                : ArrowCells.wholeAt(
                    from, row, name, episode + "dataset_from_index", 0, Long.MAX_VALUE / 2);
        long end =
            to == null
                ? first + frames
                : ArrowCells.wholeAt(
                    to, row, name, episode + "dataset_to_index", 0, Long.MAX_VALUE);
        if (end != first + frames) {
          throw new DatasetException.BadMetadata(
              name,
              episode
                  + "dataset_to_index is "
                  + end
                  + " but dataset_from_index "
                  + first
                  + " + length "
                  + frames
                  + " is "
                  + (first + frames));
        }
        Path data =
            info.dataPath()
                .resolve(
                    dataRoot,
                    Map.of(
                        "chunk_index", indexAt(root, row, name, episode, "data/chunk_index"),
                        "file_index", indexAt(root, row, name, episode, "data/file_index"),
                        "episode_index", e));
        Map<String, EpisodeLayout.Placement> videos = new LinkedHashMap<>();
        for (String camera : info.videoKeys()) {
          videos.put(camera, placement(root, row, name, episode, camera, info, dataRoot));
        }
        out.add(
            new EpisodeLayout.Row(
                e,
                frames,
                tasks == null ? List.of() : ArrowCells.stringsAt(tasks, row),
                first,
                data,
                videos,
                name));
        cumulative += frames;
      }
    }
  }

  private static EpisodeLayout.Placement placement(
      VectorSchemaRoot root,
      int row,
      String name,
      String episode,
      String camera,
      DatasetInfo info,
      Path dataRoot) {
    String p = "videos/" + camera + "/";
    long chunk = indexAt(root, row, name, episode, p + "chunk_index");
    long file = indexAt(root, row, name, episode, p + "file_index");
    Path path =
        info.videoPath()
            .resolve(
                dataRoot, Map.of("video_key", camera, "chunk_index", chunk, "file_index", file));
    return new EpisodeLayout.Placement(
        path,
        chunk,
        file,
        ArrowCells.doubleAt(ArrowCells.column(root, p + "from_timestamp", name), row, name),
        ArrowCells.doubleAt(ArrowCells.column(root, p + "to_timestamp", name), row, name));
  }

  /** A chunk or file index (0 .. 2^31 - 1) from column {@code column} of the episodes table. */
  private static long indexAt(
      VectorSchemaRoot root, int row, String name, String episode, String column) {
    return ArrowCells.wholeAt(
        ArrowCells.column(root, column, name), row, name, episode + column, 0, Integer.MAX_VALUE);
  }
}
