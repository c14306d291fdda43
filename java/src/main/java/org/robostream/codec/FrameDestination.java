package org.robostream.codec;

import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;

/**
 * Where {@link Decoder#decode} writes frames: one slot per request holding {@link #samples()} (RGB
 * uint8 by default, RGB float32, or a depth map's values), in host memory or, for NVDEC, in device
 * memory of its GPU ({@link #onDevice()}; the decoder refuses the other kind). A frame asked twice
 * is decoded once and copied ({@link #copySlot}).
 *
 * <p>Implementations: {@code FrameBatchBuilder.Column} (what {@code decode.VideoDecoder} fills) and
 * {@link HostFrameBuffer}. The loader uses a {@link PictureReceiver} instead. A decoder writes
 * slots from its own thread; distinct requests never share a slot.
 */
public interface FrameDestination {
  int width();

  int height();

  FrameLayout layout();

  /** Native address of request {@code request}'s slot. */
  long slotAddress(int request);

  /** Request {@code request}'s slot. */
  default Slot slot(int request) {
    return new Slot(slotAddress(request), width(), height(), layout(), samples());
  }

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
