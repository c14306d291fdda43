package org.robostream.stream;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.ParquetFrames;

/**
 * Episode rows for one worker: reads data Parquet files (declared columns only) through
 * arrow-dataset, keeps the last few files open (v3.0 files hold many episodes) and the recently
 * used episodes extracted. Checks that an episode has exactly its metadata length and frames
 * 0..length-1 in order. Not thread-safe: one per worker; {@link #close()} frees the files.
 */
final class EpisodeRowSource implements AutoCloseable {
  private static final int OPEN_FILES = 2;

  private final BufferAllocator allocator;
  private final DatasetInfo info;
  private final int episodeCapacity;
  private final LinkedHashMap<Path, FileRows> files = new LinkedHashMap<>(4, 0.75f, true);
  private final LinkedHashMap<Integer, EpisodeRows> episodes =
      new LinkedHashMap<>(16, 0.75f, true);

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
      throw new DatasetException.BadMetadata(name, "episode " + e.index() + " has "
          + (range[1] - range[0]) + " rows but its metadata length is " + e.length());
    }
    Map<String, ColumnValues> columns = new LinkedHashMap<>();
    for (FieldVector v : file.root().getFieldVectors()) {
      columns.put(v.getName(), ColumnValues.extract(v, range[0], e.length(), name));
    }
    ColumnValues frameIndex = columns.get("frame_index");
    if (frameIndex != null) {
      for (int f = 0; f < e.length(); f++) {
        if (frameIndex.longAt(f) != f) {
          throw new DatasetException.BadMetadata(name, "episode " + e.index() + " row " + f
              + " has frame_index " + frameIndex.longAt(f) + " (rows must be frames 0..n-1)");
        }
      }
    }
    EpisodeRows rows = new EpisodeRows(e.index(), e.length(), columns);
    episodes.put(e.index(), rows);
    while (episodes.size() > episodeCapacity) {
      episodes.remove(episodes.keySet().iterator().next());
    }
    return rows;
  }

  private FileRows file(Path path) {
    FileRows f = files.get(path);
    if (f != null) {
      return f;
    }
    List<String> columns = ParquetFrames.declaredColumns(info,
        ParquetFrames.fileColumns(allocator, path));
    VectorSchemaRoot root = ParquetFrames.read(allocator, path, columns);
    Map<Integer, int[]> ranges = new HashMap<>();
    FieldVector ep = root.getVector("episode_index");
    if (ep == null) {
      throw new DatasetException.BadMetadata(path.toString(), "data file has no episode_index"
          + " column");
    }
    ColumnValues eps = ColumnValues.extract(ep, 0, root.getRowCount(), path.toString());
    for (int r = 0; r < root.getRowCount(); ) {
      int e = (int) eps.longAt(r);
      int start = r;
      while (r < root.getRowCount() && eps.longAt(r) == e) {
        r++;
      }
      if (ranges.put(e, new int[] {start, r}) != null) {
        root.close();
        throw new DatasetException.BadMetadata(path.toString(), "rows of episode " + e
            + " are not contiguous");
      }
    }
    f = new FileRows(root, ranges);
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
