package org.robostream.stream;

import org.robostream.video.ColorSpec;

/**
 * One decoded picture held in a {@link FrameMemory} block: packed as the codec produced it (host
 * path: {@code pixelFormat} is the FFmpeg pixel format, converted when its batch is built) or
 * already converted on the batch device: RGB uint8 in the output layout ({@link #RGB}), or the
 * column's own values ({@link #COLUMN_VALUES}: float32 RGB of a deeper-than-8-bit source for a
 * float32 stream, a depth map's uint16 or float32 values). Immutable.
 *
 * @param ptsSeconds the frame's pts in its file
 * @param frameIndex the frame's position in its file (-1 where the path does not record it)
 */
record PackedFrame(
    long address,
    long bytes,
    int width,
    int height,
    int pixelFormat,
    ColorSpec color,
    double ptsSeconds,
    long frameIndex) {
  /** Pixel format of frames held as RGB uint8 in the output layout. */
  static final int RGB = -1;

  /** Pixel format of frames held as their batch column's values, copied as they are. */
  static final int COLUMN_VALUES = -2;

  /** The same picture held at another address (a transformed copy of it). */
  PackedFrame at(long other) {
    return new PackedFrame(other, bytes, width, height, pixelFormat, color, ptsSeconds, frameIndex);
  }

  /** Whether the frame is already converted on the batch device (at the batch column's size). */
  boolean isConverted() {
    return pixelFormat == RGB || pixelFormat == COLUMN_VALUES;
  }
}
