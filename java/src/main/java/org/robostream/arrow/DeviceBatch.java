package org.robostream.arrow;

import java.lang.ref.Cleaner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
 * A batch of frames exported through the Arrow C Device Data interface: an
 * {@code ArrowDeviceArray} (a struct array with one {@code arrow.fixed_shape_tensor} column per
 * camera plus its pts and frame index, all buffers on one device) and its {@code ArrowSchema}.
 * Frames stay where they were written: for a CUDA batch, {@link #frameAddress(int)} is a device
 * pointer that a GPU consumer (a trainer) reads after waiting on {@link #syncEvent()} — a pointer
 * to the {@code CUevent} recorded when the batch was complete, or 0 for host batches.
 *
 * <p>Ownership: this object owns the two C structs and, until it is released or moved into a
 * {@link VectorSchemaRoot}, the batch behind them; {@link #close()} calls the producer's release
 * callbacks (which return the buffers to their {@link BatchMemoryPool}) and frees the structs. It
 * is idempotent. Threading: not thread-safe; hand a batch to one consumer thread at a time.
 */
public final class DeviceBatch implements AutoCloseable {
  // struct ArrowDeviceArray { struct ArrowArray array; int64_t device_id; int32_t device_type;
  //   void* sync_event; int64_t reserved[3]; } with struct ArrowArray 80 bytes (see abi.h).
  static final int DEVICE_ARRAY_BYTES = 128;
  private static final int DEVICE_ID_OFFSET = 80;
  private static final int DEVICE_TYPE_OFFSET = 88;
  private static final int SYNC_EVENT_OFFSET = 96;
  private static final int SCHEMA_BYTES = 72;
  // struct ArrowArray / ArrowSchema field offsets.
  private static final int ARRAY_LENGTH = 0;
  private static final int ARRAY_N_CHILDREN = 32;
  private static final int ARRAY_BUFFERS = 40;
  private static final int ARRAY_CHILDREN = 48;
  private static final int ARRAY_RELEASE = 64;
  private static final int SCHEMA_NAME = 8;
  private static final int SCHEMA_CHILDREN = 40;
  private static final int SCHEMA_RELEASE = 56;

  private static final Logger LOG = LoggerFactory.getLogger(DeviceBatch.class);
  private static final Cleaner CLEANER = Cleaner.create();

  private final Pointer deviceArray;
  private final Pointer schema;
  private final Structs structs;
  private final Cleaner.Cleanable cleanable;
  private boolean closed;

  private DeviceBatch(Pointer deviceArray, Pointer schema) {
    this.deviceArray = deviceArray;
    this.schema = schema;
    this.structs = new Structs(deviceArray, schema);
    this.cleanable = CLEANER.register(this, structs);
  }

  /** Zeroed structs for a producer to export into. */
  static DeviceBatch allocate() {
    NativeCore.ensureLoaded();
    Pointer array = Pointer.calloc(1, DEVICE_ARRAY_BYTES);
    Pointer schema = Pointer.calloc(1, SCHEMA_BYTES);
    if (array == null || schema == null || array.isNull() || schema.isNull()) {
      throw new OutOfMemoryError("cannot allocate Arrow C Device structs");
    }
    return new DeviceBatch(array, schema);
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

  /** Address of the CUevent to wait on before reading (a {@code CUevent*}), 0 for host batches. */
  public long syncEvent() {
    return view(deviceArray.address(), DEVICE_ARRAY_BYTES).getLong(SYNC_EVENT_OFFSET);
  }

  public long rows() {
    return view(liveArray(), 80).getLong(ARRAY_LENGTH);
  }

  /** Names of the frame columns (cameras), in column order. */
  public List<String> frameColumns() {
    List<String> names = new ArrayList<>();
    long children = view(liveSchema(), SCHEMA_BYTES).getLong(SCHEMA_CHILDREN);
    long n = view(liveArray(), 80).getLong(ARRAY_N_CHILDREN);
    // Each camera contributes (frames, pts, frame_index).
    for (int i = 0; i < n; i += 3) {
      long child = view(children, 8L * n).getLong(8L * i);
      names.add(cString(view(child, SCHEMA_BYTES).getLong(SCHEMA_NAME)));
    }
    return names;
  }

  /** Address (device pointer for CUDA batches) of frame column {@code column}'s values. */
  public long frameAddress(int column) {
    long tensor = childArray(liveArray(), 3 * column);
    long values = childArray(tensor, 0);
    return bufferOf(values, 1);
  }

  /**
   * Copies a batch into host memory of {@code hostPool}, after waiting for its sync event: for
   * checks and for CPU consumers of GPU-decoded frames.
   */
  public DeviceBatch toHost(BatchMemoryPool hostPool) {
    long source = liveDevice();
    long pool = hostPool.handle();
    DeviceBatch copy = allocate();
    long[] out = new long[1];
    int status = NativeCore.rs_device_batch_copy_to_host(source, pool, out);
    if (status == NativeStatus.OK) {
      status = NativeCore.rs_device_batch_export(out[0], 0, copy.deviceArrayAddress(),
          copy.schemaAddress());
      if (status != NativeStatus.OK) {
        // A failed export leaves the copy with us (robostream.h's ownership rule): free it once.
        NativeCore.rs_device_batch_free(out[0]);
      }
    }
    if (status != NativeStatus.OK) {
      copy.close();
      NativeStatus.check(status, "cannot copy the device batch to the host");
    }
    return copy;
  }

  /**
   * Moves a host batch into a {@link VectorSchemaRoot} of {@code allocator} without copying; the
   * root owns the memory from now on (closing it returns the buffers to the pool). CUDA batches
   * must be copied with {@link #toHost} first.
   */
  public VectorSchemaRoot toVectorSchemaRoot(BufferAllocator allocator) {
    if (deviceType() != BatchMemoryPool.DEVICE_CPU) {
      throw new IllegalStateException("batch lives on cuda:" + deviceId()
          + "; copy it with toHost(pool) before importing it into Java vectors");
    }
    FixedShapeTensorType.register();
    return Data.importVectorSchemaRoot(allocator, ArrowArray.wrap(liveArray()),
        ArrowSchema.wrap(liveSchema()), null);
  }

  /** Whether the producer's array is still held (not released, not moved into Java vectors). */
  public boolean isLive() {
    return !closed && view(deviceArray.address(), 80).getLong(ARRAY_RELEASE) != 0;
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
      boolean held = view(deviceArray.address(), 80).getLong(ARRAY_RELEASE) != 0;
      if (held) {
        if (!explicit) {
          LOG.warn("a DeviceBatch was never closed; releasing it now (a leak in the caller)");
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

  private long liveDevice() {
    if (!isLive()) {
      throw new IllegalStateException("device batch was closed or moved into Java vectors");
    }
    return deviceArray.address();
  }

  private long liveArray() {
    return liveDevice();
  }

  private long liveSchema() {
    liveDevice();
    return schema.address();
  }

  private static long childArray(long array, int index) {
    long n = view(array, 80).getLong(ARRAY_N_CHILDREN);
    if (index < 0 || index >= n) {
      throw new IndexOutOfBoundsException("child " + index + " of " + n);
    }
    long children = view(array, 80).getLong(ARRAY_CHILDREN);
    return view(children, 8L * n).getLong(8L * index);
  }

  private static long bufferOf(long array, int index) {
    long buffers = view(array, 80).getLong(ARRAY_BUFFERS);
    return view(buffers, 8L * (index + 1)).getLong(8L * index);
  }

  private static BytePointer view(long address, long bytes) {
    return NativeAddress.bytesAt(address, bytes);
  }

  private static String cString(long address) {
    BytePointer p = view(address, 4096);
    int n = 0;
    while (n < 4096 && p.get(n) != 0) {
      n++;
    }
    byte[] bytes = new byte[n];
    p.get(bytes, 0, n);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
