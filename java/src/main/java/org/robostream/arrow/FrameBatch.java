package org.robostream.arrow;

import java.lang.ref.Cleaner;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.robostream.nativecore.NativeAddress;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A batch of decoded frames, whichever decoder filled it, exported through the Arrow C Device Data
 * interface: an {@code ArrowDeviceArray} (one {@code arrow.fixed_shape_tensor} column per camera
 * plus {@code <name>.pts} and {@code <name>.frame_index}, all on one device: the host or the CUDA
 * GPU that decoded them) and its {@code ArrowSchema}. Read them as {@link #tensor shaped tensors};
 * a GPU consumer on another stream first waits on {@link #syncEvent()} (0 on the host).
 *
 * <p>Ownership: owns the two C structs and the batch behind them until closed, moved out ({@link
 * #exportTo}) or moved into Arrow Java ({@link #toVectorSchemaRoot}); {@link #close()} (idempotent)
 * calls the release callbacks, returning buffers to their {@link BatchMemoryPool}. A {@link Tensor}
 * is readable while the batch is held. Not thread-safe: one consumer thread at a time.
 */
public final class FrameBatch implements AutoCloseable {
  // struct ArrowDeviceArray { struct ArrowArray array; int64_t device_id; int32_t device_type;
  //   void* sync_event; int64_t reserved[3]; } with struct ArrowArray 80 bytes (see abi.h).
  static final int DEVICE_ARRAY_BYTES = 128;
  private static final int ARRAY_BYTES = 80;
  private static final int DEVICE_ID_OFFSET = 80;
  private static final int DEVICE_TYPE_OFFSET = 88;
  private static final int SYNC_EVENT_OFFSET = 96;
  private static final int SCHEMA_BYTES = 72;
  // struct ArrowArray / ArrowSchema field offsets.
  private static final int ARRAY_N_CHILDREN = 32;
  private static final int ARRAY_BUFFERS = 40;
  private static final int ARRAY_CHILDREN = 48;
  private static final int ARRAY_RELEASE = 64;
  private static final int SCHEMA_RELEASE = 56;

  private static final Logger LOG = LoggerFactory.getLogger(FrameBatch.class);
  private static final Cleaner CLEANER = Cleaner.create();

  private final Pointer deviceArray;
  private final Pointer schema;
  private final long rows;
  private final List<FrameColumn> columns;
  private final Structs structs;
  private final Cleaner.Cleanable cleanable;
  private boolean closed;

  private FrameBatch(Pointer deviceArray, Pointer schema, long rows, List<FrameColumn> columns) {
    this.deviceArray = deviceArray;
    this.schema = schema;
    this.rows = rows;
    this.columns = List.copyOf(columns);
    this.structs = new Structs(deviceArray, schema);
    this.cleanable = CLEANER.register(this, structs);
  }

  /** Zeroed structs for a producer to export a batch of {@code columns} into. */
  static FrameBatch allocate(long rows, List<FrameColumn> columns) {
    NativeCore.ensureLoaded();
    Pointer array = Pointer.calloc(1, DEVICE_ARRAY_BYTES);
    Pointer schema = Pointer.calloc(1, SCHEMA_BYTES);
    if (array == null || schema == null || array.isNull() || schema.isNull()) {
      Pointer.free(array);
      Pointer.free(schema);
      throw new OutOfMemoryError("cannot allocate Arrow C Device structs");
    }
    return new FrameBatch(array, schema, rows, columns);
  }

  long deviceArrayAddress() {
    return deviceArray.address();
  }

  long schemaAddress() {
    return schema.address();
  }

  /** {@link BatchMemoryPool#DEVICE_CPU} or {@link BatchMemoryPool#DEVICE_CUDA}. */
  public int deviceType() {
    return view(deviceArray.address(), DEVICE_ARRAY_BYTES).getInt(DEVICE_TYPE_OFFSET);
  }

  public long deviceId() {
    return view(deviceArray.address(), DEVICE_ARRAY_BYTES).getLong(DEVICE_ID_OFFSET);
  }

  /** Whether the frames are in host memory (device_type CPU), readable from Java. */
  public boolean onHost() {
    return deviceType() == BatchMemoryPool.DEVICE_CPU;
  }

  /** Address of the CUevent to wait on before reading (a {@code CUevent*}), 0 for host batches. */
  public long syncEvent() {
    return view(deviceArray.address(), DEVICE_ARRAY_BYTES).getLong(SYNC_EVENT_OFFSET);
  }

  /**
   * Makes CUDA stream {@code stream} of the batch's GPU (a consumer's, such as torch's current
   * stream; 0 is the legacy default stream) wait until the frames are written, without blocking the
   * host: the C Device interface's rule for a consumer on another stream. Host batches are written
   * when exported: nothing to wait for.
   */
  public void makeStreamWait(long stream) {
    long event = view(liveArray(), DEVICE_ARRAY_BYTES).getLong(SYNC_EVENT_OFFSET);
    if (event != 0) {
      NativeStatus.check(
          NativeCore.rs_cuda_stream_wait_event((int) deviceId(), event, stream),
          "cannot make a CUDA stream wait for the frames of cuda:" + deviceId());
    }
  }

  public long rows() {
    return rows;
  }

  /** Bytes of the batch's buffers: every frame, and each frame's pts and frame index. */
  public long byteSize() {
    long bytes = 0;
    for (FrameColumn c : columns) {
      bytes += rows * c.positions() * (c.frameBytes() + Double.BYTES + Long.BYTES);
    }
    return bytes;
  }

  /** Names of the frame columns (cameras), in column order. */
  public List<String> frameColumns() {
    return columns.stream().map(FrameColumn::name).toList();
  }

  /** What each frame column holds (its own frame size), in column order. */
  public List<FrameColumn> columns() {
    return columns;
  }

  /** Frame column {@code name}. */
  public FrameColumn column(String name) {
    return columns.get(indexOf(name));
  }

  /** Address (device pointer for CUDA batches) of frame column {@code column}'s values. */
  public long frameAddress(int column) {
    return valuesOf(childArray(liveArray(), 3 * column));
  }

  /**
   * A column as a tensor on the batch's device, zero copy: frame column {@code name} ([B, C, H, W],
   * [B, H, W, C], or [B, T, ...] for a window; uint8 or float32), or its per-frame {@code
   * <name>.pts} (float64 seconds) or {@code <name>.frame_index} (int64 position in the file), [B]
   * or [B, T].
   *
   * @throws IllegalArgumentException naming the columns, for any other name
   */
  public Tensor tensor(String name) {
    for (int c = 0; c < columns.size(); c++) {
      FrameColumn column = columns.get(c);
      if (column.name().equals(name)) {
        int[] row = column.rowShape();
        long[] shape = new long[row.length + 1];
        shape[0] = rows;
        for (int d = 0; d < row.length; d++) {
          shape[d + 1] = row[d];
        }
        return tensorAt(name, shape, column.dtype(), 3 * c);
      }
      long[] perFrame =
          column.positions() == 1 ? new long[] {rows} : new long[] {rows, column.positions()};
      if (name.equals(column.name() + ".pts")) {
        return tensorAt(name, perFrame, DType.FLOAT64, 3 * c + 1);
      }
      if (name.equals(column.name() + ".frame_index")) {
        return tensorAt(name, perFrame, DType.INT64, 3 * c + 2);
      }
    }
    throw new IllegalArgumentException(
        "no column "
            + name
            + " in the frame batch; frame columns: "
            + frameColumns()
            + " (each with .pts and .frame_index)");
  }

  /** The tensor of the only frame column (a batch of one video's frames). */
  public Tensor tensor() {
    if (columns.size() != 1) {
      throw new IllegalArgumentException(
          "the batch has " + columns.size() + " frame columns " + frameColumns() + ": name one");
    }
    return tensor(columns.get(0).name());
  }

  private Tensor tensorAt(String name, long[] shape, DType dtype, int child) {
    long address = valuesOf(childArray(liveArray(), child));
    return new Tensor(name, shape, dtype, deviceType(), deviceId(), address, this::liveArray);
  }

  /**
   * Copies the batch into host memory of {@code hostPool}, after waiting for its sync event: for
   * CPU consumers of GPU-decoded frames. The copy is the caller's; this batch stays as it is.
   */
  public FrameBatch toHost(BatchMemoryPool hostPool) {
    long source = liveArray();
    long pool = hostPool.handle();
    FrameBatch copy = allocate(rows, columns);
    long[] out = new long[1];
    int status = NativeCore.rs_device_batch_copy_to_host(source, pool, out);
    if (status == NativeStatus.OK) {
      status =
          NativeCore.rs_device_batch_export(
              out[0], 0, copy.deviceArrayAddress(), copy.schemaAddress());
      if (status != NativeStatus.OK) {
        // A failed export leaves the copy with us (robostream.h's ownership rule): free it once.
        NativeCore.rs_device_batch_free(out[0]);
      }
    }
    if (status != NativeStatus.OK) {
      copy.close();
      NativeStatus.check(status, "cannot copy the frame batch to the host");
    }
    return copy;
  }

  /** {@link #toHost(BatchMemoryPool)} into a pool of its own, which the copy keeps alive. */
  public FrameBatch toHost() {
    try (BatchMemoryPool host = BatchMemoryPool.host()) {
      return toHost(host);
    }
  }

  /**
   * Moves a host batch into a {@link VectorSchemaRoot} of {@code allocator} without copying; the
   * root owns the memory from now on (closing it returns the buffers to the pool) and this batch is
   * spent. CUDA batches must be copied with {@link #toHost} first.
   */
  public VectorSchemaRoot toVectorSchemaRoot(BufferAllocator allocator) {
    requireHost();
    FixedShapeTensorType.register();
    return Data.importVectorSchemaRoot(
        allocator, ArrowArray.wrap(liveArray()), ArrowSchema.wrap(schema.address()), null);
  }

  /**
   * The frames of a host batch as Arrow Java vectors of {@code allocator} that share this batch's
   * memory (zero copy): both this batch and the root hold it, and it returns to its pool once both
   * are closed. For consumers of Arrow's C Data interface, which carries host memory only.
   */
  public VectorSchemaRoot sharedVectors(BufferAllocator allocator) {
    requireHost();
    FixedShapeTensorType.register();
    try (ArrowArray array = ArrowArray.allocateNew(allocator);
        ArrowSchema view = ArrowSchema.allocateNew(allocator)) {
      NativeStatus.check(
          NativeCore.rs_device_batch_host_view(
              liveArray(), array.memoryAddress(), view.memoryAddress()),
          "cannot view the frame batch as Arrow arrays");
      return Data.importVectorSchemaRoot(allocator, array, view, null);
    }
  }

  /**
   * Moves the batch into a consumer's {@code struct ArrowDeviceArray} and {@code struct
   * ArrowSchema} (the C Device interface's move: the consumer releases them through their release
   * callbacks); this batch is spent.
   */
  public void exportTo(long deviceArrayAddress, long schemaAddress) {
    long array = liveArray();
    NativeAddress.copy(deviceArrayAddress, array, DEVICE_ARRAY_BYTES);
    NativeAddress.copy(schemaAddress, schema.address(), SCHEMA_BYTES);
    view(array, ARRAY_BYTES).putLong(ARRAY_RELEASE, 0);
    view(schema.address(), SCHEMA_BYTES).putLong(SCHEMA_RELEASE, 0);
  }

  /** Whether the producer's array is still held here (not released, not moved). */
  public boolean isLive() {
    return !closed && view(deviceArray.address(), ARRAY_BYTES).getLong(ARRAY_RELEASE) != 0;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    structs.explicit = true;
    cleanable.clean();
  }

  @Override
  public String toString() {
    return "FrameBatch["
        + rows
        + " rows of "
        + frameColumns()
        + " on "
        + BatchMemoryPool.describe(deviceType(), deviceId())
        + "]";
  }

  /** Releases the producer's array and schema if still held, then frees the structs. */
  private static final class Structs implements Runnable {
    private final Pointer deviceArray;
    private final Pointer schema;
    volatile boolean explicit;

    Structs(Pointer deviceArray, Pointer schema) {
      this.deviceArray = deviceArray;
      this.schema = schema;
    }

    @Override
    public void run() {
      boolean held = view(deviceArray.address(), ARRAY_BYTES).getLong(ARRAY_RELEASE) != 0;
      if (held) {
        if (!explicit) {
          LOG.warn("a FrameBatch was never closed; releasing it now (a leak in the caller)");
        }
        ArrowArray.wrap(deviceArray.address()).release();
      }
      if (view(schema.address(), SCHEMA_BYTES).getLong(SCHEMA_RELEASE) != 0) {
        ArrowSchema.wrap(schema.address()).release();
      }
      Pointer.free(deviceArray);
      Pointer.free(schema);
    }
  }

  private int indexOf(String name) {
    for (int c = 0; c < columns.size(); c++) {
      if (columns.get(c).name().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "no frame column " + name + "; frame columns: " + frameColumns());
  }

  private void requireHost() {
    liveArray();
    if (!onHost()) {
      throw new IllegalStateException(
          "frames live on cuda:"
              + deviceId()
              + "; copy them with toHost() before reading them as Java vectors");
    }
  }

  private long liveArray() {
    if (!isLive()) {
      throw new IllegalStateException("frame batch was closed or moved out");
    }
    return deviceArray.address();
  }

  /** The values buffer under a column: its own, or its list's child's (tensors, windows). */
  private static long valuesOf(long array) {
    long values =
        view(array, ARRAY_BYTES).getLong(ARRAY_N_CHILDREN) == 0 ? array : childArray(array, 0);
    return bufferOf(values, 1);
  }

  private static long childArray(long array, int index) {
    long n = view(array, ARRAY_BYTES).getLong(ARRAY_N_CHILDREN);
    if (index < 0 || index >= n) {
      throw new IndexOutOfBoundsException("child " + index + " of " + n);
    }
    long children = view(array, ARRAY_BYTES).getLong(ARRAY_CHILDREN);
    return view(children, 8L * n).getLong(8L * index);
  }

  private static long bufferOf(long array, int index) {
    long buffers = view(array, ARRAY_BYTES).getLong(ARRAY_BUFFERS);
    return view(buffers, 8L * (index + 1)).getLong(8L * index);
  }

  private static BytePointer view(long address, long bytes) {
    return NativeAddress.bytesAt(address, bytes);
  }
}
