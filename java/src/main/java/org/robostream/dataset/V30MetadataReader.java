package org.robostream.dataset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The v3.0 layout: {@code tasks.parquet}, {@code episodes/chunk-*}{@code /file-*.parquet} (read
 * without their {@code stats/*} columns) and {@code stats.json}; episodes share data and video
 * files, located by chunk/file indices and, for videos, from/to timestamps. Stateless.
 */
final class V30MetadataReader {
  private V30MetadataReader() {}

  static MetadataTables read(Path metaRoot, Path dataRoot, DatasetInfo info) {
    Path meta = metaRoot.resolve("meta");
    try (BufferAllocator allocator = new RootAllocator()) {
      Map<Integer, String> tasks = readTasks(allocator, meta.resolve("tasks.parquet"));
      Path episodesDir = meta.resolve("episodes");
      List<EpisodeRow> rows = new ArrayList<>();
      for (Path file : episodeFiles(episodesDir)) {
        readEpisodes(allocator, file, info, rows);
      }
      rows.sort(Comparator.comparingInt(r -> r.index));
      List<EpisodeInfo> episodes = assemble(rows, info, dataRoot);
      return new MetadataTables(tasks, episodes, episodesDir.toString(),
          MetadataFiles.optionalJson(meta.resolve("stats.json")), Map.of());
    }
  }

  private static List<Path> episodeFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new DatasetException.MissingFile(dir.toString(), "episodes table folder does not"
          + " exist");
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      List<Path> files = walk.filter(p -> p.toString().endsWith(".parquet"))
          .filter(Files::isRegularFile).sorted().toList();
      if (files.isEmpty()) {
        throw new DatasetException.MissingFile(dir.toString(), "no episodes Parquet file");
      }
      return files;
    } catch (IOException e) {
      throw new DatasetException.BadMetadata(dir.toString(), "cannot list: " + e.getMessage(), e);
    }
  }

  private static Map<Integer, String> readTasks(BufferAllocator allocator, Path file) {
    List<String> columns = ParquetFrames.fileColumns(allocator, file);
    String textColumn = columns.contains("task") ? "task"
        : columns.contains("__index_level_0__") ? "__index_level_0__" : null;
    if (textColumn == null || !columns.contains("task_index")) {
      throw new DatasetException.BadMetadata(file.toString(), "tasks table needs task_index and"
          + " task (or a pandas index column); it has " + columns);
    }
    Map<Integer, String> tasks = new LinkedHashMap<>();
    try (VectorSchemaRoot root = ParquetFrames.read(allocator, file,
        List.of("task_index", textColumn))) {
      FieldVector index = root.getVector("task_index");
      FieldVector text = root.getVector(textColumn);
      for (int row = 0; row < root.getRowCount(); row++) {
        tasks.put((int) ArrowCells.longAt(index, row, file.toString()),
            ArrowCells.stringAt(text, row));
      }
    }
    return tasks;
  }

  /** One episode table row before files are resolved. */
  private static final class EpisodeRow {
    int index;
    int length;
    List<String> tasks;
    long from;
    long dataChunk;
    long dataFile;
    final Map<String, long[]> videoFile = new LinkedHashMap<>(); // camera -> {chunk, file}
    final Map<String, double[]> videoTime = new LinkedHashMap<>(); // camera -> {from, to}
  }

  private static void readEpisodes(BufferAllocator allocator, Path file, DatasetInfo info,
      List<EpisodeRow> out) {
    String name = file.toString();
    List<String> columns = ParquetFrames.fileColumns(allocator, file).stream()
        .filter(c -> !c.startsWith("stats/")).toList();
    try (VectorSchemaRoot root = ParquetFrames.read(allocator, file, columns)) {
      FieldVector index = ArrowCells.column(root, "episode_index", name);
      FieldVector length = ArrowCells.column(root, "length", name);
      FieldVector tasks = root.getVector("tasks");
      FieldVector from = root.getVector("dataset_from_index");
      FieldVector dataChunk = ArrowCells.column(root, "data/chunk_index", name);
      FieldVector dataFile = ArrowCells.column(root, "data/file_index", name);
      long cumulative = out.stream().mapToLong(r -> r.length).sum();
      for (int row = 0; row < root.getRowCount(); row++) {
        EpisodeRow r = new EpisodeRow();
        r.index = (int) ArrowCells.longAt(index, row, name);
        r.length = (int) ArrowCells.longAt(length, row, name);
        r.tasks = tasks == null ? List.of() : ArrowCells.stringsAt(tasks, row);
        r.from = from == null ? cumulative : ArrowCells.longAt(from, row, name);
        r.dataChunk = ArrowCells.longAt(dataChunk, row, name);
        r.dataFile = ArrowCells.longAt(dataFile, row, name);
        for (String camera : info.videoKeys()) {
          String p = "videos/" + camera + "/";
          r.videoFile.put(camera, new long[] {
              ArrowCells.longAt(ArrowCells.column(root, p + "chunk_index", name), row, name),
              ArrowCells.longAt(ArrowCells.column(root, p + "file_index", name), row, name)});
          r.videoTime.put(camera, new double[] {
              ArrowCells.doubleAt(ArrowCells.column(root, p + "from_timestamp", name), row, name),
              ArrowCells.doubleAt(ArrowCells.column(root, p + "to_timestamp", name), row, name)});
        }
        cumulative += r.length;
        out.add(r);
      }
    }
  }

  private static List<EpisodeInfo> assemble(List<EpisodeRow> rows, DatasetInfo info,
      Path dataRoot) {
    // Per camera and file: the episodes in storage order (by from_timestamp), to address frames
    // by position inside shared files.
    Map<String, Map<Path, List<EpisodeRow>>> byFile = new HashMap<>();
    Map<EpisodeRow, Map<String, Path>> paths = new HashMap<>();
    for (EpisodeRow r : rows) {
      Map<String, Path> cameraPaths = new LinkedHashMap<>();
      for (String camera : info.videoKeys()) {
        long[] cf = r.videoFile.get(camera);
        Path path = info.videoPath().resolve(dataRoot, Map.of("video_key", camera,
            "chunk_index", cf[0], "file_index", cf[1]));
        cameraPaths.put(camera, path);
        byFile.computeIfAbsent(camera, c -> new HashMap<>())
            .computeIfAbsent(path, p -> new ArrayList<>()).add(r);
      }
      paths.put(r, cameraPaths);
    }
    Map<EpisodeRow, Map<String, int[]>> offsets = new HashMap<>();
    byFile.forEach((camera, files) -> files.forEach((path, inFile) -> {
      inFile.sort(Comparator.comparingDouble(r -> r.videoTime.get(camera)[0]));
      int total = inFile.stream().mapToInt(r -> r.length).sum();
      int offset = 0;
      for (EpisodeRow r : inFile) {
        offsets.computeIfAbsent(r, x -> new HashMap<>()).put(camera, new int[] {offset, total});
        offset += r.length;
      }
    }));
    List<EpisodeInfo> episodes = new ArrayList<>(rows.size());
    for (EpisodeRow r : rows) {
      Path data = info.dataPath().resolve(dataRoot, Map.of("chunk_index", r.dataChunk,
          "file_index", r.dataFile, "episode_index", r.index));
      Map<String, VideoSpan> videos = new LinkedHashMap<>();
      for (String camera : info.videoKeys()) {
        double[] t = r.videoTime.get(camera);
        int[] o = offsets.get(r).get(camera);
        videos.put(camera, new VideoSpan(camera, paths.get(r).get(camera), t[0], t[1], o[0],
            o[1]));
      }
      episodes.add(new EpisodeInfo(r.index, r.length, r.tasks, r.from, data, videos));
    }
    return episodes;
  }

}
