package org.robostream.nativecore;

/**
 * One NVDEC decoding session of the native core (a cuvid parser, a pooled NVDEC decoder, a CUDA
 * stream): packets in (Annex-B H.264/HEVC, AV1 OBUs; one picture each), displayed pictures out,
 * converted to RGB straight into device memory. Take out every displayed picture after each {@link
 * #send} (the native decoder reports a reused surface instead of returning a stale frame).
 *
 * <p>Not thread-safe: one per worker thread. {@link #close()} is idempotent and gives the NVDEC
 * decoder back to the device's pool.
 */
public final class NvdecSession implements AutoCloseable {
  /** Codec codes (RS_CODEC_*). */
  public static final int H264 = 1;

  public static final int HEVC = 2;
  public static final int AV1 = 3;
  public static final int VP9 = 4;
  public static final int MPEG4 = 5;

  private final NativeHandle handle;
  private final long[] info = new long[7];

  public NvdecSession(int device, int codec, boolean lowLatency) {
    NativeCore.ensureLoaded();
    long[] out = new long[1];
    NativeStatus.check(
        NativeCore.rs_nvdec_open(device, codec, lowLatency ? 1 : 0, out),
        "cannot open an NVDEC session on cuda:" + device);
    this.handle = new NativeHandle(this, out[0], NativeCore::rs_nvdec_close, "NVDEC session");
  }

  /**
   * Null when NVDEC of {@code cuda:device} decodes this stream, else the reason it cannot (the
   * codec, a profile's bit depth, the size), from cuvidGetDecoderCaps.
   */
  public static String unsupportedReason(
      int device, int codec, int bitDepth, int width, int height) {
    int[] supported = new int[1];
    int rc = NativeCore.rs_nvdec_supports(device, codec, bitDepth, width, height, supported);
    if (rc == NativeStatus.OK && supported[0] == 1) {
      return null;
    }
    return NativeCore.rs_last_error();
  }

  public void send(long data, int size, long pts) {
    NativeStatus.check(NativeCore.rs_nvdec_send(handle.get(), data, size, pts), "NVDEC packet");
  }

  public void drain() {
    NativeStatus.check(NativeCore.rs_nvdec_drain(handle.get()), "NVDEC drain");
  }

  /** Makes the next displayed picture current; false when none is waiting. */
  public boolean next() {
    NativeStatus.check(NativeCore.rs_nvdec_next_picture(handle.get(), info), "NVDEC picture");
    return info[0] == 1;
  }

  public long currentPts() {
    return info[1];
  }

  public int currentWidth() {
    return (int) info[2];
  }

  public int currentHeight() {
    return (int) info[3];
  }

  /** RS_MATRIX_* of the stream, 0 when unspecified. */
  public int currentMatrix() {
    return (int) info[5];
  }

  public boolean currentFullRange() {
    return info[6] != 0;
  }

  /**
   * Converts the current picture into a device slot of {@code slotBytes} holding an {@code
   * outWidth} x {@code outHeight} frame (the picture scaled bilinearly by the colour kernel when
   * that is not its size), written when the call returns. A frame larger than the slot is refused
   * ({@link NativeException.InvalidArgument}), a picture NVDEC decoded with errors too ({@link
   * NativeException.CorruptData}).
   */
  public void convertCurrent(
      long deviceSlot,
      long slotBytes,
      int outWidth,
      int outHeight,
      int layout,
      int dtype,
      int matrix,
      boolean fullRange) {
    NativeStatus.check(
        NativeCore.rs_nvdec_convert_current(
            handle.get(),
            deviceSlot,
            slotBytes,
            outWidth,
            outHeight,
            layout,
            dtype,
            matrix,
            fullRange ? 1 : 0),
        "NVDEC conversion");
  }

  public void flush() {
    NativeStatus.check(NativeCore.rs_nvdec_flush(handle.get()), "NVDEC flush");
  }

  /** The session's CUstream, for the completion event of an exported device batch. */
  public long stream() {
    return NativeCore.rs_nvdec_stream(handle.get());
  }

  @Override
  public void close() {
    handle.close();
  }
}
