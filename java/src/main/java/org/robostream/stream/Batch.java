package org.robostream.stream;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.DType;
import org.robostream.arrow.FrameBatch;
import org.robostream.arrow.Tensor;

/**
 * One batch of samples: the table columns as an Arrow record batch ({@link #root()}, with windowed
 * keys stacked to [T, ...], their {@code _is_pad} masks, {@code task} and {@code is_padding}) and
 * the frames as one pooled {@link FrameBatch} ({@link #deviceFrames()}: a tensor column per camera,
 * uint8 or float32, on the host or the decoding GPU). Every column reads as a shaped {@link Tensor}
 * ({@link #tensor}); {@link #doubles}, {@link #longs} and {@link #booleans} are flattened
 * conveniences.
 *
 * <p>Ownership: the batch owns its memory until {@link #close()}, or until {@link #exportTo} hands
 * a share to a consumer, who releases it. Not thread-safe: hand it to one consumer thread.
 */
public final class Batch implements AutoCloseable {
  private final VectorSchemaRoot root;
  private final BufferAllocator allocator;
  private final long epoch;
  private final int index;
  private final BatchMemoryPool hostPool; // for toHost() of GPU frames
  private final AtomicLong openFrameBytes; // the dataset's count of open batches' frame bytes
  private FrameBatch frames; // the frames' device; replaced by its host copy in toHost()
  private boolean closed;

  Batch(
      VectorSchemaRoot root,
      BufferAllocator allocator,
      long epoch,
      int index,
      FrameBatch frames,
      BatchMemoryPool hostPool,
      AtomicLong openFrameBytes) {
    this.root = root;
    this.allocator = allocator;
    this.epoch = epoch;
    this.index = index;
    this.frames = frames;
    this.hostPool = hostPool;
    this.openFrameBytes = openFrameBytes;
    openFrameBytes.addAndGet(frames.byteSize());
  }

  /**
   * Frames of one camera in host memory: a read-only view of the batch's tensor memory (no copy)
   * and its shape, batch dimension first. Buffers are in native byte order, so {@code getFloat}
   * reads float32 frames as the core wrote them.
   *
   * <p>Lifetime: the view reads the batch's memory, which returns to a pool for the next batch when
   * the batch is closed. {@link #data()} and {@link #sample} therefore throw {@link
   * IllegalStateException} once the batch is closed, and a buffer obtained before must not be read
   * after it (copy what must outlive the batch). Same threading as the batch.
   */
  public static final class Frames {
    private final Tensor tensor;
    private final int[] shape;

    private Frames(Tensor tensor) {
      this.tensor = tensor;
      this.shape = java.util.Arrays.stream(tensor.shape()).mapToInt(Math::toIntExact).toArray();
    }

    /** All samples' frames (a new view each call, positioned at 0). */
    public ByteBuffer data() {
      return tensor.data();
    }

    /** Shape, batch dimension first: [B, C, H, W], [B, H, W, C] or [B, T, ...] for windows. */
    public int[] shape() {
      return shape.clone();
    }

    /** uint8 RGB values (0..255); false: float32, or a depth map's values ({@link #dtype()}). */
    public boolean uint8() {
      return tensor.dtype() == DType.UINT8;
    }

    /** UINT8 or FLOAT32 RGB in [0, 1]; a depth map's values UINT16 or FLOAT32 (not normalised). */
    public DType dtype() {
      return tensor.dtype();
    }

    /** Sample {@code i}'s frames as bytes (uint8) or float32 values. */
    public ByteBuffer sample(int i) {
      ByteBuffer all = tensor.data();
      int bytes = all.capacity() / shape[0];
      return all.position(i * bytes).limit((i + 1) * bytes).slice().order(all.order());
    }
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

  /** The table columns as a record batch (owned by this batch); the frames are not in it. */
  public VectorSchemaRoot root() {
    ensureOpen();
    return root;
  }

  /** Names of the table columns (not the frame columns: {@link #cameras()}). */
  public List<String> columnNames() {
    return root().getSchema().getFields().stream().map(f -> f.getName()).toList();
  }

  /** The cameras, in the order of the frame batch's columns. */
  public List<String> cameras() {
    return deviceFrames().frameColumns();
  }

  public FieldVector column(String name) {
    FieldVector v = root().getVector(name);
    if (v == null) {
      throw new IllegalArgumentException(
          "no column " + name + "; columns: " + columnNames() + "; frame columns: " + cameras());
    }
    return v;
  }

  /**
   * Any column as a shaped tensor, batch dimension first: a camera's frames ([B, C, H, W], [B, H,
   * W, C] or [B, T, ...]; uint8 or float32; on the frames' device) and its {@code <camera>.pts} /
   * {@code <camera>.frame_index}; numeric table columns ([B], [B, D], [B, T], [B, T, D]; float32,
   * float64, int64), zero copy; boolean columns ({@code is_padding}, {@code <key>_is_pad}) as
   * {@link DType#BOOL} bytes 0/1, expanded from Arrow's bitmaps. Strings ({@code task}) are no
   * tensor: {@link #strings}.
   */
  public Tensor tensor(String name) {
    ensureOpen();
    FieldVector v = root.getVector(name);
    if (v != null) {
      return TableTensors.of(name, v, root.getRowCount(), this::ensureOpen);
    }
    try {
      return frames.tensor(name);
    } catch (IllegalArgumentException e) {
      // The frame batch knows only its own columns; name all of the batch's.
      throw new IllegalArgumentException(
          "no column "
              + name
              + "; table columns: "
              + columnNames()
              + "; frame columns: "
              + cameras()
              + " (each with .pts and"
              + " .frame_index)",
          e);
    }
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
   * The frames as an Arrow C Device array, owned by this batch: device_type CPU, or CUDA when a GPU
   * decoded them (then wait on its {@link FrameBatch#syncEvent()} before reading it on another
   * stream).
   */
  public FrameBatch deviceFrames() {
    ensureOpen();
    return frames;
  }

  /**
   * The frames of {@code camera} in host memory, without a copy. Frames on a GPU are refused with
   * {@link IllegalStateException}: copy them with {@link #toHost()} first, or read them where they
   * are through {@link #tensor} / {@link #deviceFrames()}.
   */
  public Frames frames(String camera) {
    ensureOpen();
    if (!frames.onHost()) {
      throw new IllegalStateException(
          "the frames of batch "
              + index
              + " are on cuda:"
              + frames.deviceId()
              + "; call toHost() first, or read them on the GPU through"
              + " tensor(\""
              + camera
              + "\") or deviceFrames()");
    }
    frames.column(camera); // names the cameras when there is no such one
    return new Frames(frames.tensor(camera));
  }

  /**
   * Brings the frames into host memory: a GPU batch's frames are copied (after waiting for its sync
   * event) and their device memory goes back to its pool; host frames stay as they are. Returns
   * this batch.
   */
  public Batch toHost() {
    ensureOpen();
    if (!frames.onHost()) {
      FrameBatch copy = frames.toHost(hostPool);
      frames.close();
      frames = copy;
    }
    return this;
  }

  /**
   * Exports the batch through the Arrow C Data interface (host memory only): the table columns and,
   * for frames in host memory, the frame batch's columns after them, all zero copy. The consumer's
   * release callback frees its share; this batch may be closed afterwards (the exported buffers
   * stay alive until released). Frames on a GPU are not exported here: they leave through {@link
   * #deviceFrames()} ({@link FrameBatch#exportTo}, the C Device interface).
   */
  public void exportTo(ArrowArray array, ArrowSchema schema) {
    ensureOpen();
    if (!frames.onHost()) {
      Data.exportVectorSchemaRoot(allocator, root, null, array, schema);
      return;
    }
    try (VectorSchemaRoot shared = frames.sharedVectors(allocator)) {
      List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors());
      vectors.addAll(shared.getFieldVectors());
      VectorSchemaRoot whole = new VectorSchemaRoot(vectors);
      whole.setRowCount(root.getRowCount());
      // The export takes its own references: closing `shared` leaves the frames to the consumer.
      Data.exportVectorSchemaRoot(allocator, whole, null, array, schema);
    }
  }

  /** The shape of {@code camera}'s frames, batch dimension first, without touching them. */
  public int[] frameShape(String camera) {
    int[] row = deviceFrames().column(camera).rowShape();
    int[] shape = new int[row.length + 1];
    shape[0] = size();
    System.arraycopy(row, 0, shape, 1, row.length);
    return shape;
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
      openFrameBytes.addAndGet(-frames.byteSize());
      try {
        root.close();
      } finally {
        frames.close();
      }
    }
  }
}
