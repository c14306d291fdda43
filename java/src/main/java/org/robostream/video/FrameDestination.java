package org.robostream.video;

/**
 * Where {@link VideoDecoder#decode} writes frames: one slot per request in the destination's layout
 * holding {@link #samples()} (RGB uint8 by default; RGB float32 converted from the picture's
 * full-precision samples; a depth map's values, uint16 or float32), in host memory or, for a
 * decoder on NVDEC, in device memory of its GPU ({@link #onDevice()}: the decoder refuses the other
 * kind). A frame requested twice is decoded once and copied ({@link #copySlot}); {@link #delivered}
 * reports each request's pts and frame index.
 *
 * <p>Implementations: {@code FrameBatchBuilder.Column} (a uint8 column of a pooled frame batch,
 * host or CUDA, recording each frame's pts and position in the batch: what {@code
 * FrameBatch.decode} decodes into) and {@link HostFrameBuffer} (a direct ByteBuffer, for callers
 * that keep frames in Java memory). The loader takes pictures through a {@link PictureReceiver}
 * instead, whose device decides per picture where it goes.
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
   * frame requested twice is decoded and converted once). Host memory by default; destinations in
   * device memory copy there. Slots that share an address need no copy.
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

  /**
   * What a slot holds (see {@link FrameSamples}). For float32 RGB decoders convert from the
   * picture's own samples (a 10-bit source keeps its precision), not from an 8-bit frame.
   */
  default FrameSamples samples() {
    return FrameSamples.RGB_UINT8;
  }

  default long frameBytes() {
    return samples().frameBytes(height(), width());
  }
}
