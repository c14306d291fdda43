package org.robostream.stream;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.robostream.arrow.FixedShapeTensorType;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.DeviceBatch;
import org.robostream.arrow.FixedShapeTensorVector;
import org.robostream.nativecore.NativeAddress;

/**
 * One batch of samples as an Arrow record batch: every declared table column (windowed keys
 * stacked to [T, ...] with {@code <key>_is_pad}), one {@code arrow.fixed_shape_tensor} frame
 * column per camera ([C,H,W] or [T,C,H,W] per sample; HWC on request; uint8, or float32 in
 * [0, 1]), {@code task} strings and {@code is_padding}.
 *
 * <p>Device batches (GPU decoding, or {@code deviceBatches(true)}): the frame columns are not in
 * {@link #root()} but in {@link #deviceFrames()}, an Arrow C Device array on the batch device
 * (one tensor column per camera with its pts and frame index); {@link #frames} still works and
 * copies a GPU batch's frames to the host once, on first use.
 *
 * <p>Ownership: the batch owns its memory until {@link #close()} (or until {@link #exportTo}
 * hands the table columns to a consumer, who then releases them). Threading: not thread-safe; a
 * batch is handed to one consumer thread.
 */
public final class Batch implements AutoCloseable {
  private final VectorSchemaRoot root;
  private final BufferAllocator allocator;
  private final long epoch;
  private final int index;
  private final DeviceBatch deviceFrames; // null: frames are columns of root
  private final BatchMemoryPool hostPool; // for host copies of GPU frames
  private final Map<String, int[]> frameShapes; // per camera, without the batch dimension
  private final boolean uint8;
  private DeviceBatch hostFrames; // frames on the host: deviceFrames itself or its copy
  private boolean closed;

  /** A host batch: frames are columns of {@code root}. */
  Batch(VectorSchemaRoot root, BufferAllocator allocator, long epoch, int index) {
    this(root, allocator, epoch, index, null, null, Map.of(), true);
  }

  /** A device batch: table columns in {@code root}, frames in {@code deviceFrames}. */
  Batch(VectorSchemaRoot root, BufferAllocator allocator, long epoch, int index,
      DeviceBatch deviceFrames, BatchMemoryPool hostPool, StreamContext ctx) {
    this(root, allocator, epoch, index, deviceFrames, hostPool, shapesOf(ctx), ctx.uint8());
  }

  private Batch(VectorSchemaRoot root, BufferAllocator allocator, long epoch, int index,
      DeviceBatch deviceFrames, BatchMemoryPool hostPool, Map<String, int[]> frameShapes,
      boolean uint8) {
    this.root = root;
    this.allocator = allocator;
    this.epoch = epoch;
    this.index = index;
    this.deviceFrames = deviceFrames;
    this.hostPool = hostPool;
    this.frameShapes = frameShapes;
    this.uint8 = uint8;
  }

  private static Map<String, int[]> shapesOf(StreamContext ctx) {
    Map<String, int[]> shapes = new LinkedHashMap<>();
    for (String camera : ctx.cameras()) {
      shapes.put(camera, ctx.tensorShape(camera));
    }
    return shapes;
  }

  /**
   * Frames of one camera: a read-only view of the batch's tensor memory (no copy) and its shape,
   * batch dimension first. Buffers are in native byte order, so {@code getFloat} reads float32
   * frames as the core wrote them.
   *
   * <p>Lifetime: the view reads the batch's memory, which returns to a pool for the next batch
   * when the batch is closed. {@link #data()} and {@link #sample} therefore throw
   * {@link IllegalStateException} once the batch is closed, and a buffer obtained before must
   * not be read after it (copy what must outlive the batch). Same threading as the batch.
   */
  public static final class Frames {
    private final Batch batch;
    private final ByteBuffer data;
    private final int[] shape;
    private final boolean uint8;

    private Frames(Batch batch, ByteBuffer data, int[] shape, boolean uint8) {
      this.batch = batch;
      this.data = data;
      this.shape = shape;
      this.uint8 = uint8;
    }

    /** All samples' frames (a new view each call, positioned at 0). */
    public ByteBuffer data() {
      batch.ensureOpen();
      return nativeOrder(data.duplicate());
    }

    /** Shape, batch dimension first: [B, C, H, W], [B, H, W, C] or [B, T, ...] for windows. */
    public int[] shape() {
      return shape.clone();
    }

    /** uint8 values (0..255), else float32 in [0, 1]. */
    public boolean uint8() {
      return uint8;
    }

    /** Sample {@code i}'s frames as bytes (uint8) or float32 values. */
    public ByteBuffer sample(int i) {
      batch.ensureOpen();
      int per = 1;
      for (int d = 1; d < shape.length; d++) {
        per *= shape[d];
      }
      int bytes = per * (uint8 ? 1 : 4);
      return nativeOrder(data.duplicate().position(i * bytes).limit((i + 1) * bytes).slice());
    }
  }

  // duplicate(), slice() and asReadOnlyBuffer() all reset a buffer to big-endian.
  private static ByteBuffer nativeOrder(ByteBuffer view) {
    return view.order(ByteOrder.nativeOrder());
  }

  public int size() {
    ensureOpen();
    return root.getRowCount();
  }

  /** The epoch this batch belongs to. */
  public long epoch() {
    return epoch;
  }

  /** Position of this batch in its epoch on this rank (0-based). */
  public int index() {
    return index;
  }

  /** The underlying record batch (owned by this batch). */
  public VectorSchemaRoot root() {
    ensureOpen();
    return root;
  }

  public List<String> columnNames() {
    return root().getSchema().getFields().stream().map(f -> f.getName()).toList();
  }

  public FieldVector column(String name) {
    FieldVector v = root().getVector(name);
    if (v == null) {
      throw new IllegalArgumentException("no column " + name + "; columns: " + columnNames());
    }
    return v;
  }

  /** A numeric column flattened (row-major over [batch, T?, D?]) as doubles. */
  public double[] doubles(String name) {
    ValueVector items = innermost(column(name));
    double[] out = new double[items.getValueCount()];
    for (int i = 0; i < out.length; i++) {
      if (items instanceof Float4Vector f) {
        out[i] = f.get(i);
      } else if (items instanceof Float8Vector f) {
        out[i] = f.get(i);
      } else if (items instanceof BaseIntVector n) {
        out[i] = n.getValueAsLong(i);
      } else if (items instanceof BitVector b) {
        out[i] = b.get(i);
      } else {
        throw new IllegalArgumentException(name + " is not numeric");
      }
    }
    return out;
  }

  /** An integer column (e.g. {@code index}, {@code episode_index}) flattened as longs. */
  public long[] longs(String name) {
    ValueVector items = innermost(column(name));
    long[] out = new long[items.getValueCount()];
    for (int i = 0; i < out.length; i++) {
      if (items instanceof BaseIntVector n) {
        out[i] = n.getValueAsLong(i);
      } else {
        throw new IllegalArgumentException(name + " is not an integer column");
      }
    }
    return out;
  }

  /** A boolean column ({@code is_padding}, {@code <key>_is_pad}) flattened. */
  public boolean[] booleans(String name) {
    ValueVector items = innermost(column(name));
    boolean[] out = new boolean[items.getValueCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = ((BitVector) items).get(i) != 0;
    }
    return out;
  }

  public String[] strings(String name) {
    FieldVector v = column(name);
    String[] out = new String[v.getValueCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = String.valueOf(v.getObject(i));
    }
    return out;
  }

  /**
   * The frames as an Arrow C Device array on the batch device (a GPU's memory when frames are
   * decoded with NVDEC), owned by this batch; null when the frames are columns of
   * {@link #root()}. Wait on its {@link DeviceBatch#syncEvent()} before reading on another
   * stream.
   */
  public DeviceBatch deviceFrames() {
    ensureOpen();
    return deviceFrames;
  }

  /**
   * The frames of {@code camera}. For a device batch on a GPU the first call copies all of the
   * batch's frames to the host (once); use {@link #deviceFrames()} to keep them on the GPU.
   */
  public Frames frames(String camera) {
    if (deviceFrames != null) {
      return hostFramesOf(camera);
    }
    FieldVector v = column(camera);
    if (!(v instanceof FixedShapeTensorVector t)) {
      throw new IllegalArgumentException(camera + " is not a frame column");
    }
    FixedShapeTensorType type = t.tensorType();
    int[] tensor = type.shape();
    int[] shape = new int[tensor.length + 1];
    shape[0] = size();
    System.arraycopy(tensor, 0, shape, 1, tensor.length);
    boolean uint8 = type.valueType() instanceof org.apache.arrow.vector.types.pojo.ArrowType.Int;
    FieldVector data = t.getUnderlyingVector().getDataVector();
    long bytes = (long) data.getValueCount() * (uint8 ? 1 : 4);
    return new Frames(this, data.getDataBuffer().nioBuffer(0, (int) bytes).asReadOnlyBuffer(),
        shape, uint8);
  }

  /**
   * Exports the batch through the Arrow C Data interface; the consumer's release callback frees
   * it. This batch may be closed afterwards (the exported buffers stay alive until released).
   * For a device batch these are the table columns; its frames are {@link #deviceFrames()}.
   */
  public void exportTo(ArrowArray array, ArrowSchema schema) {
    Data.exportVectorSchemaRoot(allocator, root(), null, array, schema);
  }

  /** The shape of {@code camera}'s frames, batch dimension first, without touching them. */
  public int[] frameShape(String camera) {
    ensureOpen();
    int[] tensor;
    if (deviceFrames != null) {
      tensor = frameShapes.get(camera);
      if (tensor == null) {
        throw new IllegalArgumentException("no camera " + camera + "; cameras: "
            + frameShapes.keySet());
      }
    } else if (column(camera) instanceof FixedShapeTensorVector t) {
      tensor = t.tensorType().shape();
    } else {
      throw new IllegalArgumentException(camera + " is not a frame column");
    }
    int[] shape = new int[tensor.length + 1];
    shape[0] = size();
    System.arraycopy(tensor, 0, shape, 1, tensor.length);
    return shape;
  }

  private Frames hostFramesOf(String camera) {
    int[] shape = frameShape(camera);
    if (hostFrames == null) {
      hostFrames = deviceFrames.deviceType() == BatchMemoryPool.DEVICE_CPU ? deviceFrames
          : deviceFrames.toHost(hostPool);
    }
    int column = hostFrames.frameColumns().indexOf(camera);
    long values = 1;
    for (int d : shape) {
      values *= d;
    }
    long bytes = values * (uint8 ? 1 : 4);
    ByteBuffer data = NativeAddress.bytesAt(hostFrames.frameAddress(column), bytes)
        .asByteBuffer().asReadOnlyBuffer();
    return new Frames(this, data, shape, uint8);
  }

  private static ValueVector innermost(FieldVector v) {
    ValueVector items = v;
    while (items instanceof FixedSizeListVector f) {
      items = f.getDataVector();
    }
    return items;
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("batch " + index + " is closed");
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      root.close();
      if (hostFrames != null && hostFrames != deviceFrames) {
        hostFrames.close();
      }
      if (deviceFrames != null) {
        deviceFrames.close();
      }
    }
  }
}
