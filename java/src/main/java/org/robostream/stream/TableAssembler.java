package org.robostream.stream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Builds the table part of one {@link Batch} (Arrow Java vectors) from samples whose rows are at
 * hand: every declared table column gathered through the windows (stacked to [T, ...]) with its
 * {@code <key>_is_pad}, each camera's {@code <camera>_is_pad}, {@code task} strings and {@code
 * is_padding}. The frames go to the batch's {@code FrameBatch} ({@link BatchMaker}). Not
 * thread-safe: one per worker.
 */
final class TableAssembler {
  private static final ArrowType BOOL = ArrowType.Bool.INSTANCE;

  private final StreamContext ctx;
  private final BufferAllocator allocator;

  TableAssembler(StreamContext ctx, BufferAllocator allocator) {
    this.ctx = ctx;
    this.allocator = allocator;
  }

  /** The table of {@code items}; {@code is_padding} true where {@code flagged} says so. */
  VectorSchemaRoot build(List<HeldSample> items, java.util.function.IntPredicate flagged) {
    List<FieldVector> vectors = new ArrayList<>();
    try {
      int n = items.size();
      EpisodeRows first = items.get(0).rows();
      for (String name : first.columns().keySet()) {
        ColumnValues c = first.column(name);
        int[] offsets = ctx.windows().offsets(name);
        vectors.add(tableColumn(name, c.kind, c.width, c.scalar, offsets, items));
        if (offsets != null) {
          vectors.add(padColumn(name + "_is_pad", offsets, items));
        }
      }
      for (String camera : ctx.cameras()) {
        int[] offsets = ctx.windows().offsets(camera);
        if (offsets != null) {
          vectors.add(padColumn(camera + "_is_pad", offsets, items));
        }
      }
      VarCharVector task = new VarCharVector("task", allocator);
      vectors.add(task);
      task.allocateNew(n);
      BitVector isPadding = new BitVector("is_padding", allocator);
      vectors.add(isPadding);
      isPadding.allocateNew(n);
      for (int i = 0; i < n; i++) {
        task.setSafe(i, taskOf(items.get(i)).getBytes(StandardCharsets.UTF_8));
        isPadding.set(i, flagged.test(i) ? 1 : 0);
      }
      task.setValueCount(n);
      isPadding.setValueCount(n);
      VectorSchemaRoot root = new VectorSchemaRoot(vectors);
      root.setRowCount(n);
      return root;
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
  }

  private String taskOf(HeldSample item) {
    ColumnValues t = item.rows().column("task_index");
    if (t != null && t.kind == ColumnValues.Kind.INT64) {
      return ctx.metadata().task((int) t.longAt(Samples.frame(item.sample())));
    }
    return item.episode().tasks().isEmpty() ? "" : item.episode().tasks().get(0);
  }

  private FieldVector tableColumn(
      String name,
      ColumnValues.Kind kind,
      int width,
      boolean scalar,
      int[] offsets,
      List<HeldSample> items) {
    Field field = Field.notNullable("item", arrowType(kind));
    if (!scalar) {
      field =
          new Field(
              name, FieldType.notNullable(new ArrowType.FixedSizeList(width)), List.of(field));
    }
    if (offsets != null) {
      field =
          new Field(
              name,
              FieldType.notNullable(new ArrowType.FixedSizeList(offsets.length)),
              List.of(field));
    }
    field = new Field(name, field.getFieldType(), field.getChildren());
    FieldVector vector = field.createVector(allocator);
    try {
      int positions = offsets == null ? 1 : offsets.length;
      int n = items.size();
      FieldVector leaf = leafOf(vector, n);
      int total = n * positions * width;
      int out = 0;
      for (HeldSample item : items) {
        ColumnValues c = item.rows().column(name);
        int frame = Samples.frame(item.sample());
        for (int t = 0; t < positions; t++) {
          int src =
              offsets == null
                  ? frame
                  : Windows.clampedFrame(frame, offsets[t], item.rows().length());
          for (int j = 0; j < width; j++) {
            int at = src * width + j;
            switch (kind) {
              case FLOAT32 -> ((Float4Vector) leaf).set(out, c.f32[at]);
              case FLOAT64 -> ((Float8Vector) leaf).set(out, c.f64[at]);
              case INT64 -> ((BigIntVector) leaf).set(out, c.i64[at]);
              case BOOL -> ((BitVector) leaf).set(out, c.bool[at] ? 1 : 0);
              case STRING ->
                  ((VarCharVector) leaf).setSafe(out, c.str[at].getBytes(StandardCharsets.UTF_8));
              default -> throw new IllegalStateException();
            }
            out++;
          }
        }
      }
      leaf.setValueCount(total);
      return vector;
    } catch (RuntimeException e) {
      vector.close();
      throw e;
    }
  }

  /** Allocates every level of nested fixed-size lists for {@code n} rows; returns the leaf. */
  private static FieldVector leafOf(FieldVector vector, int n) {
    FieldVector v = vector;
    int count = n;
    while (v instanceof FixedSizeListVector list) {
      list.setInitialCapacity(count);
      list.allocateNew();
      for (int i = 0; i < count; i++) {
        list.setNotNull(i);
      }
      list.setValueCount(count);
      count *= list.getListSize();
      v = list.getDataVector();
    }
    if (v instanceof VarCharVector s) {
      s.allocateNew(count);
    } else {
      v.setInitialCapacity(count);
      v.allocateNew();
    }
    return v;
  }

  private static ArrowType arrowType(ColumnValues.Kind kind) {
    return switch (kind) {
      case FLOAT32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case INT64 -> new ArrowType.Int(64, true);
      case BOOL -> BOOL;
      case STRING -> ArrowType.Utf8.INSTANCE;
    };
  }

  private FieldVector padColumn(String name, int[] offsets, List<HeldSample> items) {
    Field field =
        new Field(
            name,
            FieldType.notNullable(new ArrowType.FixedSizeList(offsets.length)),
            List.of(Field.notNullable("item", BOOL)));
    FieldVector vector = field.createVector(allocator);
    BitVector leaf = (BitVector) leafOf(vector, items.size());
    int out = 0;
    for (HeldSample item : items) {
      int frame = Samples.frame(item.sample());
      for (int o : offsets) {
        leaf.set(out++, Windows.isPad(frame, o, item.rows().length()) ? 1 : 0);
      }
    }
    leaf.setValueCount(out);
    return vector;
  }
}
