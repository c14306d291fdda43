package org.robostream.stream;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.robostream.arrow.FixedShapeTensorType;
import org.robostream.arrow.FixedShapeTensorVector;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.video.PackedPicture;

/**
 * Builds one {@link Batch}'s record batch from samples whose rows and decoded frames are at
 * hand: table columns gathered through the windows, frames converted from the packed pictures
 * of the worker's frame store (RGB uint8, or float32 / 255); or only the table columns when the
 * frames go to a device batch ({@link DeviceFramePath}). Not thread-safe: one per worker.
 */
final class BatchAssembler {
  private static final ArrowType BOOL = ArrowType.Bool.INSTANCE;

  private final StreamContext ctx;
  private final BufferAllocator allocator;
  private final TensorMemoryPool pool;

  BatchAssembler(StreamContext ctx, BufferAllocator allocator, TensorMemoryPool pool) {
    this.ctx = ctx;
    this.allocator = allocator;
    this.pool = pool;
  }

  /** One sample: its rows, its episode, and where its frames are. */
  record Item(long sample, EpisodeInfo episode, EpisodeRows rows, PackedFrame[] frames) {}

  /** The whole batch: table columns and frame columns converted from packed pictures. */
  VectorSchemaRoot build(List<Item> items, boolean padding, PackedPicture packer) {
    return build(items, padding, packer, true);
  }

  /**
   * Everything but the frames (their {@code <camera>_is_pad} masks included), for batches whose
   * frames go to a device batch.
   */
  VectorSchemaRoot buildTables(List<Item> items, boolean padding) {
    return build(items, padding, null, false);
  }

  private VectorSchemaRoot build(List<Item> items, boolean padding, PackedPicture packer,
      boolean withFrames) {
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
      int frameBase = 0; // index of the camera's first picture in Item.frames
      for (int k = 0; k < ctx.cameras().size(); k++) {
        String camera = ctx.cameras().get(k);
        int[] offsets = ctx.windows().offsets(camera);
        if (withFrames) {
          vectors.add(frameColumn(camera, frameBase, offsets, items, packer));
        }
        frameBase += offsets == null ? 1 : offsets.length;
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
        isPadding.set(i, padding ? 1 : 0);
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

  private String taskOf(Item item) {
    ColumnValues t = item.rows().column("task_index");
    if (t != null && t.kind == ColumnValues.Kind.INT64) {
      return ctx.metadata().task((int) t.longAt(Samples.frame(item.sample())));
    }
    return item.episode().tasks().isEmpty() ? "" : item.episode().tasks().get(0);
  }

  private FieldVector tableColumn(String name, ColumnValues.Kind kind, int width, boolean scalar,
      int[] offsets, List<Item> items) {
    Field field = Field.notNullable("item", arrowType(kind));
    if (!scalar) {
      field = new Field(name, FieldType.notNullable(new ArrowType.FixedSizeList(width)),
          List.of(field));
    }
    if (offsets != null) {
      field = new Field(name, FieldType.notNullable(new ArrowType.FixedSizeList(offsets.length)),
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
      for (Item item : items) {
        ColumnValues c = item.rows().column(name);
        int frame = Samples.frame(item.sample());
        for (int t = 0; t < positions; t++) {
          int src = offsets == null ? frame
              : Windows.clampedFrame(frame, offsets[t], item.rows().length());
          for (int j = 0; j < width; j++) {
            int at = src * width + j;
            switch (kind) {
              case FLOAT32 -> ((Float4Vector) leaf).set(out, c.f32[at]);
              case FLOAT64 -> ((Float8Vector) leaf).set(out, c.f64[at]);
              case INT64 -> ((BigIntVector) leaf).set(out, c.i64[at]);
              case BOOL -> ((BitVector) leaf).set(out, c.bool[at] ? 1 : 0);
              case STRING -> ((VarCharVector) leaf).setSafe(out,
                  c.str[at].getBytes(StandardCharsets.UTF_8));
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

  private FieldVector padColumn(String name, int[] offsets, List<Item> items) {
    Field field = new Field(name, FieldType.notNullable(
        new ArrowType.FixedSizeList(offsets.length)), List.of(Field.notNullable("item", BOOL)));
    FieldVector vector = field.createVector(allocator);
    BitVector leaf = (BitVector) leafOf(vector, items.size());
    int out = 0;
    for (Item item : items) {
      int frame = Samples.frame(item.sample());
      for (int o : offsets) {
        leaf.set(out++, Windows.isPad(frame, o, item.rows().length()) ? 1 : 0);
      }
    }
    leaf.setValueCount(out);
    return vector;
  }

  private FieldVector frameColumn(String camera, int frameBase, int[] offsets, List<Item> items,
      PackedPicture packer) {
    int h = ctx.height();
    int w = ctx.width();
    int positions = offsets == null ? 1 : offsets.length;
    int[] shape = ctx.tensorShape(camera);
    List<String> names = ctx.tensorDimNames(camera);
    ArrowType value = ctx.uint8() ? new ArrowType.Int(8, false)
        : new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
    FixedShapeTensorType type = new FixedShapeTensorType(value, shape, names);
    FixedShapeTensorVector vector = (FixedShapeTensorVector) type.getNewVector(camera,
        FieldType.notNullable(type), allocator);
    try {
      FixedSizeListVector storage = vector.getUnderlyingVector();
      FieldVector leaf = (FieldVector) storage.addOrGetVector(FieldType.notNullable(value))
          .getVector();
      int n = items.size();
      storage.setInitialCapacity(n);
      storage.allocateNew();
      for (int i = 0; i < n; i++) {
        storage.setNotNull(i);
      }
      long frameBytes = ctx.frameBytes();
      long total = (long) n * positions * frameBytes;
      // Pixels go into recycled, uninitialised memory: every byte is written below.
      try (ArrowBuf pixels = pool.take(allocator, total * (ctx.uint8() ? 1 : 4));
          ArrowBuf valid = pool.takeAllValid(allocator, (total + 7) / 8)) {
        leaf.loadFieldBuffers(new ArrowFieldNode(total, 0), List.of(valid, pixels));
      }
      ArrowBuf data = leaf.getDataBuffer();
      for (int i = 0; i < n; i++) {
        for (int t = 0; t < positions; t++) {
          PackedFrame f = items.get(i).frames()[frameBase + t];
          if (f.width() != w || f.height() != h) {
            throw new IllegalStateException(camera + " frame is " + f.width() + "x"
                + f.height() + " but info.json declares " + w + "x" + h);
          }
          long slot = (long) i * positions + t;
          if (ctx.uint8()) {
            packer.toRgb(f.address(), w, h, f.pixelFormat(), f.color(),
                data.memoryAddress() + slot * frameBytes, ctx.layout());
          } else {
            packer.toRgb(f.address(), w, h, f.pixelFormat(), f.color(), rgbScratch(frameBytes),
                ctx.layout());
            toFloats(rgbScratchBuffer, data.nioBuffer(slot * frameBytes * 4,
                (int) (frameBytes * 4)), (int) frameBytes);
          }
        }
      }
      vector.setValueCount(n);
      return vector;
    } catch (RuntimeException e) {
      vector.close();
      throw e;
    }
  }

  /** v / 255 for every byte value v: the reference's float32 frames. */
  private static final float[] UNIT = new float[256];

  static {
    for (int v = 0; v < 256; v++) {
      UNIT[v] = v / 255f;
    }
  }

  private final float[] floatRow = new float[4096];

  /** Writes {@code n} bytes of {@code in} as floats in [0, 1] into {@code out} (Arrow order). */
  private void toFloats(ByteBuffer in, ByteBuffer out, int n) {
    java.nio.FloatBuffer floats = out.order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
    for (int start = 0; start < n; start += floatRow.length) {
      int len = Math.min(floatRow.length, n - start);
      for (int i = 0; i < len; i++) {
        floatRow[i] = UNIT[in.get(start + i) & 0xFF];
      }
      floats.put(floatRow, 0, len);
    }
  }

  private ByteBuffer rgbScratchBuffer;
  private long rgbScratchAddress;

  /** A reusable RGB frame for float output (converted to RGB here, then scaled). */
  private long rgbScratch(long frameBytes) {
    if (rgbScratchBuffer == null || rgbScratchBuffer.capacity() < frameBytes) {
      rgbScratchBuffer = ByteBuffer.allocateDirect((int) frameBytes);
      rgbScratchAddress = new org.bytedeco.javacpp.Pointer(rgbScratchBuffer).address();
    }
    return rgbScratchAddress;
  }
}
