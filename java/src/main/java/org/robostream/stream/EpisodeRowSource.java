package org.robostream.stream;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.EpisodeRowRanges;
import org.robostream.dataset.FeatureColumns;
import org.robostream.dataset.ParquetFrames;

/**
 * Episode rows for one worker: reads data Parquet files (declared columns only, checked against
 * info.json by {@link FeatureColumns}) through arrow-dataset, keeps the last few files open (v3.0
 * files hold many episodes) and the recently used episodes extracted. An episode must have exactly
 * its metadata length of rows, whose {@code frame_index} is 0..length-1, whose {@code timestamp} is
 * within half a frame of {@code frame_index / fps} (where the frame is looked up; or of {@code
 * (frame_index + 1) / fps} for every row, a writer stamping each frame's end) and whose {@code
 * index} counts on from the table's {@code dataset_from_index}. Not thread-safe: one per worker;
 * {@link #close()} frees the files.
 */
final class EpisodeRowSource implements AutoCloseable {
  private static final int OPEN_FILES = 2;

  private final BufferAllocator allocator;
  private final DatasetInfo info;
  private final int episodeCapacity;
  private final LinkedHashMap<Path, FileRows> files = new LinkedHashMap<>(4, 0.75f, true);
  private final LinkedHashMap<Integer, EpisodeRows> episodes = new LinkedHashMap<>(16, 0.75f, true);

  private record FileRows(VectorSchemaRoot root, Map<Integer, int[]> ranges) {}

  EpisodeRowSource(BufferAllocator allocator, DatasetInfo info, int episodeCapacity) {
    this.allocator = allocator;
    this.info = info;
    this.episodeCapacity = Math.max(2, episodeCapacity);
  }

  EpisodeRows rows(EpisodeInfo e) {
    EpisodeRows cached = episodes.get(e.index());
    if (cached != null) {
      return cached;
    }
    FileRows file = file(e.dataFile());
    String name = e.dataFile().toString();
    int[] range = file.ranges().get(e.index());
    if (range == null) {
      throw new DatasetException.BadMetadata(name, "holds no rows of episode " + e.index());
    }
    if (range[1] - range[0] != e.length()) {
      throw new DatasetException.BadMetadata(
          name,
          "episode "
              + e.index()
              + " has "
              + (range[1] - range[0])
              + " rows but its metadata length is "
              + e.length());
    }
    Map<String, ColumnValues> columns = new LinkedHashMap<>();
    for (FieldVector v : file.root().getFieldVectors()) {
      ColumnValues c = ColumnValues.extract(v, range[0], e.length(), name);
      long declared = info.features().get(v.getName()).elementCount();
      if (c.width != declared) {
        throw new DatasetException.BadMetadata(
            name,
            "column "
                + v.getName()
                + " has "
                + c.width
                + " values per row but info.json declares "
                + declared);
      }
      columns.put(v.getName(), c);
    }
    checkFrames(e, columns, name);
    EpisodeRows rows = new EpisodeRows(e.index(), e.length(), columns);
    episodes.put(e.index(), rows);
    while (episodes.size() > episodeCapacity) {
      episodes.remove(episodes.keySet().iterator().next());
    }
    return rows;
  }

  /** Row f must be frame f: the loader delivers row f with the video frame at f / fps. */
  private void checkFrames(EpisodeInfo e, Map<String, ColumnValues> columns, String file) {
    ColumnValues frameIndex = integers(columns, "frame_index", file);
    ColumnValues index = integers(columns, "index", file);
    integers(columns, "task_index", file);
    ColumnValues timestamp = columns.get("timestamp");
    if (timestamp != null
        && timestamp.kind != ColumnValues.Kind.FLOAT32
        && timestamp.kind != ColumnValues.Kind.FLOAT64) {
      throw new DatasetException.BadMetadata(
          file,
          "column timestamp holds "
              + timestamp.kind
              + " values; expected float32 or float64 seconds");
    }
    double frame = 1.0 / info.fps();
    double halfFrame = 0.5 * frame;
    // Some writers (GR00T's demo data) stamp each row with the end of its frame: timestamps run
    // from 1/fps, not 0. Rows still pair with frames by position (row f, frame f: the loader
    // reads frame f at f / fps, and checks the video's frames against the table's), so a start one
    // frame late is the writer's convention, accepted when every row keeps it; any other start, or
    // a row that leaves it, is a disagreement.
    double start = timestamp == null || e.length() == 0 ? 0 : timestamp.doubleAt(0);
    double shift = Math.abs(start - frame) < halfFrame ? frame : 0;
    for (int f = 0; f < e.length(); f++) {
      String row = "episode " + e.index() + " row " + f;
      if (frameIndex != null && frameIndex.longAt(f) != f) {
        throw new DatasetException.BadMetadata(
            file,
            row + " has frame_index " + frameIndex.longAt(f) + " (rows must be frames 0..n-1)");
      }
      if (index != null && index.longAt(f) != e.datasetFromIndex() + f) {
        throw new DatasetException.BadMetadata(
            file,
            row
                + " has index "
                + index.longAt(f)
                + " but the episodes table's dataset_from_index "
                + e.datasetFromIndex()
                + " puts it at "
                + (e.datasetFromIndex() + f));
      }
      double seconds = timestamp == null ? f * frame : timestamp.doubleAt(f);
      if (!(Math.abs(seconds - (f * frame + shift)) < halfFrame)) {
        throw new DatasetException.BadMetadata(
            file,
            row
                + " has timestamp "
                + seconds
                + " s, more than half a frame from frame "
                + f
                + " at "
                + info.fps()
                + " fps ("
                + (f * frame + shift)
                + " s"
                + (shift == 0 ? "" : ", as the episode's timestamps start one frame late")
                + ")");
      }
    }
  }

  /** The column, which must hold integers when present. */
  private static ColumnValues integers(
      Map<String, ColumnValues> columns, String name, String file) {
    ColumnValues c = columns.get(name);
    if (c != null && c.kind != ColumnValues.Kind.INT64) {
      throw new DatasetException.BadMetadata(
          file,
          "column " + name + " holds " + c.kind + " values; expected int64 (an integer column)");
    }
    return c;
  }

  private FileRows file(Path path) {
    FileRows f = files.get(path);
    if (f != null) {
      return f;
    }
    String name = path.toString();
    Schema schema = ParquetFrames.schema(allocator, path);
    FeatureColumns.check(info, schema, name);
    List<String> columns =
        ParquetFrames.declaredColumns(
            info,
            schema.getFields().stream()
                .map(org.apache.arrow.vector.types.pojo.Field::getName)
                .toList());
    VectorSchemaRoot root = ParquetFrames.read(allocator, path, columns);
    try {
      FieldVector ep = root.getVector(EpisodeRowRanges.COLUMN);
      if (ep == null) {
        throw new DatasetException.BadMetadata(
            name, "data file has no " + EpisodeRowRanges.COLUMN + " column");
      }
      f = new FileRows(root, EpisodeRowRanges.of(ep, name).ranges());
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
    files.put(path, f);
    while (files.size() > OPEN_FILES) {
      Path eldest = files.keySet().iterator().next();
      files.remove(eldest).root().close();
    }
    return f;
  }

  @Override
  public void close() {
    files.values().forEach(f -> f.root().close());
    files.clear();
    episodes.clear();
  }
}
