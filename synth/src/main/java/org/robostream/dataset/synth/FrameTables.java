package org.robostream.dataset.synth;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Frame rows of generated episodes in LeRobot's data schema: {@code action} and {@code
 * observation.state} as fixed-size float32 lists (float64 with {@link
 * WriterConventions#vectorsAsFloat64()}), the cameras when they are image features ({@link
 * ImageColumns}), {@code timestamp} float32 (as {@link WriterConventions#rowTimestamp} says), int64
 * indices and, with {@link SyntheticDatasetSpec#languageColumns()}, LeRobot's language columns last
 * ({@link LanguageColumnWriter}), where its annotation pipeline appends them. Not thread-safe.
 */
final class FrameTables {
  private final BufferAllocator allocator;
  private final SyntheticDatasetSpec spec;
  private final Schema schema;
  private final ImageColumns images; // null when the cameras are videos
  private final TableValues values;

  /** About what both language columns' messages of a row take (text of a few dozen bytes). */
  private static final long LANGUAGE_BYTES_PER_ROW = 128;

  FrameTables(BufferAllocator allocator, SyntheticDatasetSpec spec, CameraFormat cameras) {
    this.allocator = allocator;
    this.spec = spec;
    this.images = cameras.isImage() ? new ImageColumns(spec, cameras) : null;
    this.values = TableValues.of(spec);
    ArrowType f32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
    ArrowType i64 = new ArrowType.Int(64, true);
    List<Field> fields = new ArrayList<>();
    fields.add(vector("action"));
    fields.add(vector("observation.state"));
    if (images != null) {
      fields.addAll(images.fields());
    }
    fields.add(Field.notNullable("timestamp", f32));
    fields.add(Field.notNullable("frame_index", i64));
    fields.add(Field.notNullable("episode_index", i64));
    fields.add(Field.notNullable("index", i64));
    fields.add(Field.notNullable("task_index", i64));
    if (spec.languageColumns()) {
      fields.addAll(LanguageColumnWriter.fields());
    }
    this.schema = new Schema(fields);
  }

  private Field vector(String name) {
    Field item =
        Field.notNullable(
            "item",
            new ArrowType.FloatingPoint(
                spec.conventions().vectorsAsFloat64()
                    ? FloatingPointPrecision.DOUBLE
                    : FloatingPointPrecision.SINGLE));
    return new Field(
        name,
        FieldType.notNullable(new ArrowType.FixedSizeList(spec.stateDimension())),
        List.of(item));
  }

  /** Estimated Parquet bytes per row, for the data-file rollover. */
  long bytesPerRow() {
    return 2L * spec.stateDimension() * 4
        + 4
        + 4 * 8
        + (images == null ? 0 : images.bytesPerRow())
        + (spec.languageColumns() ? LANGUAGE_BYTES_PER_ROW : 0);
  }

  /** The rows of episode {@code e}, whose first frame has global index {@code firstIndex}. */
  VectorSchemaRoot episode(int e, long firstIndex) {
    int n = spec.length(e);
    int d = spec.stateDimension();
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    try {
      root.allocateNew();
      FixedSizeListVector action = (FixedSizeListVector) root.getVector("action");
      FixedSizeListVector state = (FixedSizeListVector) root.getVector("observation.state");
      FloatingPointVector actionItems = (FloatingPointVector) action.getDataVector();
      FloatingPointVector stateItems = (FloatingPointVector) state.getDataVector();
      ((BaseFixedWidthVector) actionItems).allocateNew(n * d);
      ((BaseFixedWidthVector) stateItems).allocateNew(n * d);
      Float4Vector timestamp = (Float4Vector) root.getVector("timestamp");
      BigIntVector frameIndex = (BigIntVector) root.getVector("frame_index");
      BigIntVector episodeIndex = (BigIntVector) root.getVector("episode_index");
      BigIntVector index = (BigIntVector) root.getVector("index");
      BigIntVector taskIndex = (BigIntVector) root.getVector("task_index");
      int task = SyntheticValues.taskIndex(e, spec.tasks());
      for (int f = 0; f < n; f++) {
        action.setNotNull(f);
        state.setNotNull(f);
        for (int j = 0; j < d; j++) {
          // The float32 value either way: a float64 column holds exactly what float32 would.
          actionItems.setWithPossibleTruncate(f * d + j, values.action(e, f, j));
          stateItems.setWithPossibleTruncate(f * d + j, values.state(e, f, j));
        }
        timestamp.set(f, (float) spec.conventions().rowTimestamp(e, f, spec.fps()));
        frameIndex.set(f, f);
        episodeIndex.set(f, e);
        index.set(f, firstIndex + f);
        taskIndex.set(f, task);
      }
      if (images != null) {
        images.fill(root, e, n);
      }
      if (spec.languageColumns()) {
        LanguageColumnWriter.SYNTHETIC.fill(root, n);
      }
      actionItems.setValueCount(n * d);
      stateItems.setValueCount(n * d);
      root.setRowCount(n);
      return root;
    } catch (RuntimeException ex) {
      root.close();
      throw ex;
    }
  }
}
