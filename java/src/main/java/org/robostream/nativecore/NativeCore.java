package org.robostream.nativecore;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Platform;
import org.robostream.NativeCacheLock;

/**
 * Raw JavaCPP binding of the native core's C API ({@code native/include/robostream/robostream.h}).
 *
 * <p>Every method mirrors one C function; status codes are turned into exceptions by {@link
 * NativeStatus#check(int, String)}, the single place where native errors become Java exceptions.
 * Addresses are plain {@code long}s: the binding deliberately avoids FFmpeg or Arrow Java types
 * (JavaCPP's build step cannot see their headers). Application code uses the owning wrappers
 * ({@code Av1Decoder}, {@code FrameBatchBuilder}, ...) instead of this class.
 *
 * <p>Thread-safety is that of the C functions: handles are confined to one thread at a time; the
 * counters and availability queries are safe from any thread.
 */
@Platform(include = "robostream/robostream.h", link = "robostream_core")
public final class NativeCore {
  static {
    // Processes started together (ranks) must not extract the same libraries at once.
    // (Loader.load() names the class it loads by its caller: here that would be the lambda.)
    NativeCacheLock.whileHolding(() -> Loader.load(NativeCore.class));
  }

  private NativeCore() {}

  /** Forces the native libraries to load; throws {@link UnsatisfiedLinkError} when they cannot. */
  public static void ensureLoaded() {
    // The static initializer did the work.
  }

  public static native @Cast("const char*") String rs_version();

  public static native @Cast("const char*") String rs_last_error();

  public static native @Cast("int64_t") long rs_live_objects();

  public static native @Cast("int64_t") long rs_live_bytes();

  /**
   * Test hook: on the calling thread, the next {@code succeedFirst} allocations of batch memory
   * succeed and the {@code thenFail} after them fail with OUT_OF_MEMORY; (0, 0) turns it off.
   */
  public static native void rs_debug_fail_allocations(
      @Cast("int64_t") long succeedFirst, @Cast("int64_t") long thenFail);

  public static native int rs_convert_yuv8(
      @Cast("const uint8_t*") long y,
      int yStride,
      @Cast("const uint8_t*") long u,
      int uStride,
      @Cast("const uint8_t*") long v,
      int vStride,
      int width,
      int height,
      int chroma,
      int matrix,
      int fullRange,
      @Cast("uint8_t*") long dst,
      int layout);

  public static native @Cast("int64_t") long rs_transform_yuv8_bytes(
      int width, int height, int chromaWidthShift, int chromaHeightShift);

  public static native int rs_transform_yuv8(
      @Cast("int64_t") long src,
      @Cast("int64_t") long dst,
      @Cast("int64_t") long scratch,
      int width,
      int height,
      int chromaWidthShift,
      int chromaHeightShift,
      int fullRange,
      @Cast("const float*") float[] ops,
      int opCount);

  public static native int rs_transform_rgb(
      @Cast("int64_t") long frame,
      @Cast("int64_t") long scratch,
      int width,
      int height,
      int layout,
      int isFloat,
      @Cast("const float*") float[] ops,
      int opCount);

  public static native int rs_av1_available();

  public static native @Cast("const char*") String rs_av1_unavailable_reason();

  public static native @Cast("const char*") String rs_av1_library_version();

  public static native int rs_av1_open(
      int threads, int maxFrameDelay, @Cast("int64_t*") long[] handleOut);

  public static native int rs_av1_send(
      @Cast("int64_t") long handle,
      @Cast("const uint8_t*") long data,
      int size,
      @Cast("int64_t") long pts);

  public static native int rs_av1_drain(@Cast("int64_t") long handle);

  public static native int rs_av1_next_picture(
      @Cast("int64_t") long handle, @Cast("int64_t*") long[] out);

  public static native int rs_av1_convert_current(
      @Cast("int64_t") long handle,
      int matrix,
      int fullRange,
      @Cast("uint8_t*") long dst,
      int layout);

  public static native int rs_av1_current_planes(
      @Cast("int64_t") long handle, @Cast("int64_t*") long[] out);

  public static native int rs_av1_flush(@Cast("int64_t") long handle);

  public static native void rs_av1_close(@Cast("int64_t") long handle);

  public static native int rs_pool_create(
      int deviceType, int deviceId, @Cast("int64_t*") long[] handleOut);

  public static native int rs_pool_stats(@Cast("int64_t") long pool, @Cast("int64_t*") long[] out);

  public static native void rs_pool_free(@Cast("int64_t") long pool);

  public static native int rs_pool_acquire(
      @Cast("int64_t") long pool, @Cast("int64_t") long bytes, @Cast("int64_t*") long[] addressOut);

  public static native int rs_pool_release(
      @Cast("int64_t") long pool, @Cast("int64_t") long address, @Cast("int64_t") long bytes);

  public static native int rs_pool_stream_create(
      @Cast("int64_t") long pool, @Cast("int64_t*") long[] streamOut);

  public static native void rs_pool_stream_free(
      @Cast("int64_t") long pool, @Cast("int64_t") long stream);

  public static native int rs_pool_stream_sync(
      @Cast("int64_t") long pool, @Cast("int64_t") long stream);

  public static native int rs_pool_copy(
      @Cast("int64_t") long pool,
      @Cast("int64_t") long dst,
      @Cast("int64_t") long src,
      @Cast("int64_t") long bytes,
      @Cast("int64_t") long stream);

  public static native int rs_pool_upload(
      @Cast("int64_t") long pool,
      @Cast("int64_t") long dst,
      @Cast("const void*") long hostSrc,
      @Cast("int64_t") long bytes,
      @Cast("int64_t") long stream);

  public static native int rs_pool_expand_unit_floats(
      @Cast("int64_t") long pool,
      @Cast("int64_t") long dst,
      @Cast("int64_t") long src,
      @Cast("int64_t") long count,
      @Cast("int64_t") long stream);

  public static native int rs_device_batch_create(
      @Cast("int64_t") long pool, @Cast("int64_t") long rows, @Cast("int64_t*") long[] handleOut);

  public static native int rs_device_batch_add_frame_column(
      @Cast("int64_t") long batch,
      String name,
      int height,
      int width,
      int layout,
      int dtype,
      @Cast("int32_t*") int[] columnOut);

  public static native int rs_device_batch_add_window_column(
      @Cast("int64_t") long batch,
      String name,
      int positions,
      int height,
      int width,
      int layout,
      int dtype,
      @Cast("int32_t*") int[] columnOut);

  public static native int rs_device_batch_frame_slot(
      @Cast("int64_t") long batch,
      int column,
      @Cast("int64_t") long slot,
      @Cast("int64_t*") long[] addressOut);

  public static native int rs_device_batch_set_frame_info(
      @Cast("int64_t") long batch,
      int column,
      @Cast("int64_t") long slot,
      double ptsSeconds,
      @Cast("int64_t") long frameIndex);

  public static native int rs_device_batch_export(
      @Cast("int64_t") long batch,
      @Cast("int64_t") long stream,
      @Cast("void*") long deviceArray,
      @Cast("void*") long arrowSchema);

  public static native int rs_device_batch_host_view(
      @Cast("const void*") long deviceArray,
      @Cast("void*") long arrowArray,
      @Cast("void*") long arrowSchema);

  public static native int rs_device_batch_copy_to_host(
      @Cast("const void*") long deviceArray,
      @Cast("int64_t") long hostPool,
      @Cast("int64_t*") long[] handleOut);

  public static native void rs_device_batch_free(@Cast("int64_t") long batch);

  public static native int rs_cuda_compiled();

  public static native int rs_cuda_device_count();

  public static native int rs_cuda_driver_version(@Cast("int32_t*") int[] versionOut);

  /** Makes {@code stream} of cuda:deviceId wait for an exported batch's sync_event (a CUevent*). */
  public static native int rs_cuda_stream_wait_event(
      int deviceId, @Cast("int64_t") long syncEvent, @Cast("int64_t") long stream);

  /** A TCP socket at 127.0.0.1 that admits nobody yet (see {@link #rs_loopback_admit}). */
  public static native int rs_loopback_listen(
      @Cast("int32_t*") int[] fdOut, @Cast("int32_t*") int[] portOut);

  /** Admits connections from 127.0.0.1 at these source ports only (at most 2000). */
  public static native int rs_loopback_admit(
      int fd, @Cast("const uint16_t*") short[] ports, int count);

  /** Closes a listener of {@link #rs_loopback_listen} that was not handed on. */
  public static native void rs_loopback_close(int fd);

  public static native int rs_nvdec_available(int device);

  public static native int rs_nvdec_supports(
      int device,
      int codec,
      int bitDepth,
      int width,
      int height,
      @Cast("int32_t*") int[] supportedOut);

  public static native int rs_nvdec_open(
      int device, int codec, int lowLatency, @Cast("int64_t*") long[] handleOut);

  public static native int rs_nvdec_send(
      @Cast("int64_t") long handle,
      @Cast("const uint8_t*") long data,
      int size,
      @Cast("int64_t") long pts);

  public static native int rs_nvdec_drain(@Cast("int64_t") long handle);

  public static native int rs_nvdec_next_picture(
      @Cast("int64_t") long handle, @Cast("int64_t*") long[] out);

  public static native int rs_nvdec_convert_current(
      @Cast("int64_t") long handle,
      @Cast("int64_t") long deviceSlot,
      @Cast("int64_t") long slotBytes,
      int outWidth,
      int outHeight,
      int layout,
      int dtype,
      int matrix,
      int fullRange);

  public static native int rs_nvdec_flush(@Cast("int64_t") long handle);

  public static native @Cast("int64_t") long rs_nvdec_stream(@Cast("int64_t") long handle);

  public static native void rs_nvdec_close(@Cast("int64_t") long handle);

  // Host-to-device transfers (bench --device cuda): pinned staging, one async copy per batch.

  public static native int rs_transfer_open(int device, @Cast("int64_t*") long[] handleOut);

  public static native int rs_transfer_staging(
      @Cast("int64_t") long transfer,
      @Cast("int64_t") long bytes,
      @Cast("int64_t*") long[] addressOut);

  public static native int rs_transfer_upload(
      @Cast("int64_t") long transfer, @Cast("int64_t") long bytes);

  public static native int rs_transfer_read_back(
      @Cast("int64_t") long transfer, @Cast("void*") long hostDst, @Cast("int64_t") long bytes);

  public static native void rs_transfer_close(@Cast("int64_t") long transfer);
}
