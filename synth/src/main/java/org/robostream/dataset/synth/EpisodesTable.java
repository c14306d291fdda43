package org.robostream.dataset.synth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * v3.0 {@code meta/episodes/chunk-000/file-000.parquet}: one row per episode with its length, data
 * file, per-camera video file and from/to timestamps, and (like LeRobot) per-episode {@code
 * stats/*} columns, which readers skip. Not thread-safe.
 */
final class EpisodesTable {
  /** One episode; {@code videos} per camera: {chunk, file, from, to}. */
  record Row(
      int episode, int length, long from, int dataChunk, int dataFile, List<double[]> videos) {
    Row(int episode, int length, long from, int dataChunk, int dataFile) {
      this(episode, length, from, dataChunk, dataFile, new ArrayList<>());
    }
  }

  private static final ArrowType I64 = new ArrowType.Int(64, true);
  private static final ArrowType F64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

  private final BufferAllocator allocator;
  private final SyntheticDatasetSpec spec;
  private final List<String> cameras;
  private final List<Row> rows = new ArrayList<>();

  /** {@code videoCameras}: the cameras stored as videos (none when they are image features). */
  EpisodesTable(BufferAllocator allocator, SyntheticDatasetSpec spec, List<String> videoCameras) {
    this.allocator = allocator;
    this.spec = spec;
    this.cameras = List.copyOf(videoCameras);
  }

  void add(Row row) {
    rows.add(row);
  }

  void write(Path file) throws IOException {
    List<Field> fields = new ArrayList<>();
    fields.add(Field.notNullable("episode_index", I64));
    fields.add(
        new Field(
            "tasks",
            FieldType.notNullable(ArrowType.List.INSTANCE),
            List.of(Field.notNullable("item", ArrowType.Utf8.INSTANCE))));
    fields.add(Field.notNullable("length", I64));
    for (String c :
        List.of("data/chunk_index", "data/file_index", "dataset_from_index", "dataset_to_index")) {
      fields.add(Field.notNullable(c, I64));
    }
    for (String camera : cameras) {
      fields.add(Field.notNullable("videos/" + camera + "/chunk_index", I64));
      fields.add(Field.notNullable("videos/" + camera + "/file_index", I64));
      fields.add(Field.notNullable("videos/" + camera + "/from_timestamp", F64));
      fields.add(Field.notNullable("videos/" + camera + "/to_timestamp", F64));
    }
    fields.add(Field.notNullable("meta/episodes/chunk_index", I64));
    fields.add(Field.notNullable("meta/episodes/file_index", I64));
    fields.add(
        new Field(
            "stats/action/mean",
            FieldType.notNullable(new ArrowType.FixedSizeList(spec.stateDimension())),
            List.of(Field.notNullable("item", F64))));
    fields.add(Field.notNullable("stats/frame_index/max", F64));
    Schema schema = new Schema(fields);
    int n = rows.size();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      ListVector tasks = (ListVector) root.getVector("tasks");
      VarCharVector taskItems = (VarCharVector) tasks.getDataVector();
      FixedSizeListVector mean = (FixedSizeListVector) root.getVector("stats/action/mean");
      Float8Vector meanItems = (Float8Vector) mean.getDataVector();
      for (int i = 0; i < n; i++) {
        Row r = rows.get(i);
        setLong(root, "episode_index", i, r.episode());
        int at = tasks.startNewValue(i);
        String task = SyntheticValues.task(SyntheticValues.taskIndex(r.episode(), spec.tasks()));
        taskItems.setSafe(at, task.getBytes(StandardCharsets.UTF_8));
        tasks.endValue(i, 1);
        setLong(root, "length", i, r.length());
        setLong(root, "data/chunk_index", i, r.dataChunk());
        setLong(root, "data/file_index", i, r.dataFile());
        setLong(root, "dataset_from_index", i, r.from());
        setLong(root, "dataset_to_index", i, r.from() + r.length());
        for (int k = 0; k < cameras.size(); k++) {
          double[] v = r.videos().get(k);
          String p = "videos/" + cameras.get(k) + "/";
          setLong(root, p + "chunk_index", i, (long) v[0]);
          setLong(root, p + "file_index", i, (long) v[1]);
          ((Float8Vector) root.getVector(p + "from_timestamp")).setSafe(i, v[2]);
          ((Float8Vector) root.getVector(p + "to_timestamp")).setSafe(i, v[3]);
        }
        setLong(root, "meta/episodes/chunk_index", i, 0);
        setLong(root, "meta/episodes/file_index", i, 0);
        mean.setNotNull(i);
        double[] episodeMean = StatsSummary.actionMean(spec, r.episode());
        for (int j = 0; j < spec.stateDimension(); j++) {
          meanItems.setSafe(i * spec.stateDimension() + j, episodeMean[j]);
        }
        ((Float8Vector) root.getVector("stats/frame_index/max")).setSafe(i, r.length() - 1);
      }
      meanItems.setValueCount(n * spec.stateDimension());
      for (FieldVector v : root.getFieldVectors()) {
        if (!(v instanceof ListVector) && !(v instanceof FixedSizeListVector)) {
          v.setValueCount(n);
        }
      }
      tasks.setValueCount(n);
      mean.setValueCount(n);
      root.setRowCount(n);
      ParquetTableWriter.write(allocator, schema, List.of(root), file);
    }
  }

  private static void setLong(VectorSchemaRoot root, String column, int row, long value) {
    ((BigIntVector) root.getVector(column)).setSafe(row, value);
  }
}
