package org.robostream.arrow;

import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeHandle;
import org.robostream.nativecore.NativeStatus;

/**
 * A native pool of batch buffers on one device — host memory or one CUDA GPU — from which {@link
 * FrameBatchBuilder}s take their frame buffers, so that steady-state batch assembly never allocates
 * memory (nor page-faults fresh host pages, nor zeroes them). Buffers are recycled by size; a
 * batch's buffers return to the pool when the batch is closed or its exported array released.
 *
 * <p>Ownership: {@link #close()} drops this object's reference; batches and exported arrays keep
 * the native pool alive until they are released. Thread-safe: builders on many threads may share
 * one pool.
 */
public final class BatchMemoryPool implements AutoCloseable {
  /** Device types of the Arrow C Device interface. */
  public static final int DEVICE_CPU = 1;

  public static final int DEVICE_CUDA = 2;

  private final NativeHandle handle;
  private final int deviceType;
  private final int deviceId;
  private long utilityStream; // for copyAndWait; guarded by this

  private BatchMemoryPool(int deviceType, int deviceId) {
    NativeCore.ensureLoaded();
    long[] out = new long[1];
    NativeStatus.check(
        NativeCore.rs_pool_create(deviceType, deviceId, out),
        "cannot create a batch memory pool on " + describe(deviceType, deviceId));
    this.handle = new NativeHandle(this, out[0], NativeCore::rs_pool_free, "batch memory pool");
    this.deviceType = deviceType;
    this.deviceId = deviceId;
  }

  /** A pool of host memory (exported batches have device_type CPU). */
  public static BatchMemoryPool host() {
    return new BatchMemoryPool(DEVICE_CPU, 0);
  }

  /**
   * A pool of memory on {@code cuda:device}. Throws {@link org.robostream.GpuUnavailableException}
   * naming the cause when that GPU cannot be used here.
   */
  public static BatchMemoryPool cuda(int device) {
    org.robostream.nativecore.Cuda.requireDevice(device, "a batch memory pool on cuda:" + device);
    return new BatchMemoryPool(DEVICE_CUDA, device);
  }

  public int deviceType() {
    return deviceType;
  }

  public int deviceId() {
    return deviceId;
  }

  /** Counters of the pool, read atomically. */
  public Stats stats() {
    long[] out = new long[5];
    NativeStatus.check(NativeCore.rs_pool_stats(handle.get(), out), "pool stats");
    return new Stats(out[0], out[1], out[2], out[3], out[4]);
  }

  long handle() {
    return handle.get();
  }

  /** Whether buffers of this pool are CUDA device memory (else host memory). */
  public boolean onCuda() {
    return deviceType == DEVICE_CUDA;
  }

  // Raw buffers and copies on this pool's device, for frames that wait between their decoding
  // and their batch (the streaming loader's shuffle buffer). Addresses are device pointers on
  // CUDA pools. Asynchronous operations are queued on a stream of this pool (0: the default
  // stream); on host pools they are done when they return and streams are 0.

  /** A pooled buffer of {@code bytes}; give it back with {@link #release}. */
  public long acquire(long bytes) {
    long[] out = new long[1];
    NativeStatus.check(
        NativeCore.rs_pool_acquire(handle.get(), bytes, out),
        "cannot take " + bytes + " bytes from " + this);
    return out[0];
  }

  /** Returns a buffer of {@link #acquire} (same byte count) to the pool. */
  public void release(long address, long bytes) {
    NativeStatus.check(
        NativeCore.rs_pool_release(handle.get(), address, bytes),
        "cannot return a buffer to " + this);
  }

  /** A new stream of this pool's device (0 on host pools); free it with {@link #freeStream}. */
  public long createStream() {
    long[] out = new long[1];
    NativeStatus.check(
        NativeCore.rs_pool_stream_create(handle.get(), out), "cannot create a stream on " + this);
    return out[0];
  }

  public void freeStream(long stream) {
    NativeCore.rs_pool_stream_free(handle.get(), stream);
  }

  /** Waits until everything queued on {@code stream} is done. */
  public void synchronize(long stream) {
    NativeStatus.check(
        NativeCore.rs_pool_stream_sync(handle.get(), stream),
        "cannot wait for a stream of " + this);
  }

  /** Copies {@code bytes} between two buffers of this pool's device, queued on {@code stream}. */
  public void copy(long dst, long src, long bytes, long stream) {
    NativeStatus.check(
        NativeCore.rs_pool_copy(handle.get(), dst, src, bytes, stream),
        "cannot copy " + bytes + " bytes on " + this);
  }

  /**
   * Copies host memory into a buffer of this pool's device, queued on {@code stream}; the host
   * memory may be reused when this returns.
   */
  public void upload(long dst, long hostSrc, long bytes, long stream) {
    NativeStatus.check(
        NativeCore.rs_pool_upload(handle.get(), dst, hostSrc, bytes, stream),
        "cannot upload " + bytes + " bytes to " + this);
  }

  /**
   * Copies between two buffers of this pool's device and waits for the copy, on a stream of the
   * pool's own (never the legacy default stream, which waits behind every blocking stream of the
   * process, a trainer's included).
   */
  public void copyAndWait(long dst, long src, long bytes) {
    long stream = utilityStream();
    copy(dst, src, bytes, stream);
    synchronize(stream);
  }

  private synchronized long utilityStream() {
    if (utilityStream == 0) {
      utilityStream = createStream();
    }
    return utilityStream;
  }

  /**
   * {@code dst[i] = src[i] / 255} for {@code count} values: uint8 RGB to float32 in [0, 1], both
   * buffers of this pool's device, queued on {@code stream} (bit-equal on every device).
   */
  public void expandToUnitFloats(long dst, long src, long count, long stream) {
    NativeStatus.check(
        NativeCore.rs_pool_expand_unit_floats(handle.get(), dst, src, count, stream),
        "cannot convert frames to float32 on " + this);
  }

  @Override
  public void close() {
    synchronized (this) {
      if (utilityStream != 0 && handle.isOpen()) {
        freeStream(utilityStream);
        utilityStream = 0;
      }
    }
    handle.close();
  }

  @Override
  public String toString() {
    return "BatchMemoryPool[" + describe(deviceType, deviceId) + "]";
  }

  static String describe(int deviceType, long deviceId) {
    return deviceType == DEVICE_CUDA ? "cuda:" + deviceId : "cpu";
  }

  /**
   * @param allocations buffers the device allocated
   * @param reuses buffer requests served from the pool
   * @param outstandingBytes bytes held by live batches and exported arrays
   * @param pooledBytes bytes idle in the pool
   * @param outstandingEvents completion events held by exported arrays
   */
  public record Stats(
      long allocations,
      long reuses,
      long outstandingBytes,
      long pooledBytes,
      long outstandingEvents) {}
}
