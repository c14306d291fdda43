package org.robostream.stream;

import org.robostream.video.ColorSpec;

/**
 * One decoded picture held in a {@link FrameMemory} block, in the {@link HeldForm} its path gives
 * it: packed as the codec produced it (host path, converted when its batch is built) or already
 * converted on the batch device (RGB uint8 in the output layout, or the column's own values).
 * Immutable.
 *
 * @param ptsSeconds the frame's pts in its file
 * @param frameIndex the frame's position in its file (-1 where the path does not record it)
 */
record PackedFrame(
    long address,
    long bytes,
    int width,
    int height,
    HeldForm form,
    ColorSpec color,
    double ptsSeconds,
    long frameIndex) {
  /** The same picture held at another address (a transformed copy of it). */
  PackedFrame at(long other) {
    return new PackedFrame(other, bytes, width, height, form, color, ptsSeconds, frameIndex);
  }

  /** Whether the frame is already converted on the batch device (at the batch column's size). */
  boolean isConverted() {
    return form instanceof HeldForm.Converted;
  }

  /**
   * The FFmpeg pixel format of a packed frame; an {@link IllegalStateException} for a converted
   * one, which has none.
   */
  int pixelFormat() {
    if (form instanceof HeldForm.Packed packed) {
      return packed.pixelFormat();
    }
    throw new IllegalStateException(
        "a frame converted on the batch device (" + form + ") has no pixel format");
  }
}
