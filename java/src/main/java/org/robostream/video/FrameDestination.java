package org.robostream.video;

/**
 * Where {@link VideoDecoder#decode} writes frames: one RGB uint8 slot of
 * {@code height * width * 3} bytes per request, in the destination's layout. Implementations:
 * {@code FrameBatchBuilder.Column} (a column of the pooled frame batch, host or CUDA memory:
 * what {@code FrameBatch.decode} and the loader decode into) and {@link HostFrameBuffer} (a
 * direct ByteBuffer, for callers that keep frames in Java memory).
 *
 * <p>Threading: a decoder writes slots from its own thread; distinct requests never share a slot.
 */
public interface FrameDestination {
  int width();

  int height();

  FrameLayout layout();

  /** Native address of request {@code request}'s slot. */
  long slotAddress(int request);

  /** Called once per request after its slot was written. */
  default void delivered(int request, double ptsSeconds, long frameIndex) {}

  /**
   * Fills request {@code to}'s slot with the frame already written for request {@code from} (a
   * frame requested twice is decoded and converted once). Host memory by default; destinations
   * in device memory copy there. Slots that share an address need no copy.
   */
  default void copySlot(int to, int from) {
    long dst = slotAddress(to);
    long src = slotAddress(from);
    if (dst != src) {
      org.robostream.nativecore.NativeAddress.copy(dst, src, frameBytes());
    }
  }

  /** Whether the slots are device (CUDA) memory, written by NVDEC; false: host memory. */
  default boolean onDevice() {
    return false;
  }

  default long frameBytes() {
    return (long) width() * height() * 3;
  }
}
