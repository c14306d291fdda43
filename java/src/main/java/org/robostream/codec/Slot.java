package org.robostream.codec;

import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;

/**
 * Where one frame is written: {@code width} x {@code height} values of {@code samples} in {@code
 * layout} at {@code address} (host memory, or device memory of the decoding GPU). A slot of another
 * size than the picture gets the picture scaled by the conversion that writes it. Immutable.
 */
public record Slot(long address, int width, int height, FrameLayout layout, FrameSamples samples) {
  /** The same slot at another address. */
  public Slot at(long other) {
    return new Slot(other, width, height, layout, samples);
  }

  /** Bytes the frame takes. */
  public long bytes() {
    return samples.frameBytes(height, width);
  }
}
