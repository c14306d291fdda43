package org.robostream.nativecore;

/**
 * Owner of one native dav1d decoding session.
 *
 * <p>Not thread-safe: one per worker thread. {@link #close()} is idempotent; the handle is freed
 * exactly once. The pictures it produces live inside the native decoder and are converted straight
 * into a caller's frame slot.
 */
public final class Av1Decoder implements AutoCloseable {
  /** Result of {@link #nextPicture()}: the indices into the info array. */
  public static final int INFO_AVAILABLE = 0;

  public static final int INFO_PTS = 1;
  public static final int INFO_WIDTH = 2;
  public static final int INFO_HEIGHT = 3;
  public static final int INFO_CHROMA = 4;
  public static final int INFO_BIT_DEPTH = 5;
  public static final int INFO_MATRIX = 6;
  public static final int INFO_FULL_RANGE = 7;

  private final NativeHandle handle;
  private final long[] info = new long[8];
  private final long[] planes = new long[9];

  /**
   * Opens a decoder; {@code threads} 0 lets dav1d choose. {@code lowLatency} (max_frame_delay 1)
   * returns each picture right after its packet; otherwise dav1d pipelines frames across threads.
   */
  public Av1Decoder(int threads, boolean lowLatency) {
    long[] out = new long[1];
    NativeStatus.check(
        NativeCore.rs_av1_open(threads, lowLatency ? 1 : 0, out),
        "cannot open the dav1d AV1 decoder");
    handle = new NativeHandle(this, out[0], NativeCore::rs_av1_close, "dav1d decoder");
  }

  /** Whether libdav1d could be loaded in this process. */
  public static boolean isAvailable() {
    return NativeCore.rs_av1_available() != 0;
  }

  /** Why libdav1d is unavailable ("" when available). */
  public static String unavailabilityCause() {
    return NativeCore.rs_av1_unavailable_reason();
  }

  public static String libraryVersion() {
    return NativeCore.rs_av1_library_version();
  }

  /** Decodes one packet (copied by the core; the caller may free it on return). */
  public void send(long dataAddress, int size, long pts) {
    NativeStatus.check(NativeCore.rs_av1_send(live(), dataAddress, size, pts), "AV1 decode");
  }

  public void drain() {
    NativeStatus.check(NativeCore.rs_av1_drain(live()), "AV1 drain");
  }

  /**
   * Makes the next decoded picture current and returns its info array (see INFO_*), or null when no
   * picture is ready. The array is reused by the next call.
   */
  public long[] nextPicture() {
    NativeStatus.check(NativeCore.rs_av1_next_picture(live(), info), "AV1 picture");
    return info[INFO_AVAILABLE] != 0 ? info : null;
  }

  /** Converts the current picture to RGB24 into the slot at {@code dst}. */
  public void convertCurrent(int matrix, boolean fullRange, long dst, int layout) {
    NativeStatus.check(
        NativeCore.rs_av1_convert_current(live(), matrix, fullRange ? 1 : 0, dst, layout),
        "AV1 colour conversion");
  }

  /** Plane layout of the current picture (see rs_av1_current_planes); the array is reused. */
  public long[] currentPlanes() {
    NativeStatus.check(NativeCore.rs_av1_current_planes(live(), planes), "AV1 planes");
    return planes;
  }

  public void flush() {
    NativeStatus.check(NativeCore.rs_av1_flush(live()), "AV1 flush");
  }

  private long live() {
    return handle.get();
  }

  @Override
  public void close() {
    handle.close();
  }
}
