package org.robostream.stream;

import org.robostream.video.ColorSpec;

/**
 * One decoded picture held in a {@link FrameMemory} block: packed as the codec produced it (host
 * path: {@code pixelFormat} is the FFmpeg pixel format, converted when its batch is built) or
 * already RGB in the output layout on the batch device: uint8 ({@link #RGB}), or float32 in [0, 1]
 * ({@link #UNIT_FLOATS}: a deeper-than-8-bit source converted for a float32 stream). Immutable.
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

  /** Pixel format of frames held as float32 RGB in [0, 1] in the output layout. */
  static final int UNIT_FLOATS = -2;
}
