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
 * info.json by {@link FeatureColumns}, each in its declared type; language and other nested columns
 * as one JSON text per row) through arrow-dataset, keeps the last few files open (v3.0 files hold
 * many episodes) and the recently used episodes extracted. An episode must have exactly its
 * metadata length of rows. Its index columns ({@code frame_index} 0..length-1, {@code index}
 * counting on from {@code dataset_from_index}, a finite {@code timestamp}) were checked when the
 * dataset was opened ({@code LeRobotMetadata.checkDataFiles}); the {@code timestamp} column is
 * delivered as written, whatever convention it keeps. Not thread-safe: one per worker; {@link
 * #close()} frees the files.
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
      org.robostream.dataset.Feature feature = info.features().get(v.getName());
      if (FeatureColumns.deliveredAsJson(feature, v.getField())) {
        // One text per row whatever the declared shape (a language column declares [1]).
        columns.put(v.getName(), ColumnValues.json(v, range[0], e.length(), name, e.index()));
        continue;
      }
      ColumnValues c =
          ColumnValues.extract(
              v, range[0], e.length(), name, ColumnValues.declared(feature.dtype()));
      long declared = feature.elementCount();
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
