package org.robostream.video;

/**
 * What a decoded frame's slot holds. Colour: RGB, 3 channels, uint8 or float32 in [0, 1] (float32
 * from the picture's full-precision samples). Depth ({@code video.is_depth_map}): one channel, the
 * first plane's sample values as decoded (gray16le, gray12le, gray10le, gray, the Y plane of
 * yuv420p16le), uint16 (never rescaled: a 12-bit value stays a 12-bit value, so depth units
 * survive; 8-bit samples are widened) or float32 (the same value as a float, not normalised: 1000
 * stays 1000.0). Immutable.
 */
public enum FrameSamples {
  RGB_UINT8(3, 1),
  RGB_FLOAT32(3, Float.BYTES),
  DEPTH_UINT16(1, Short.BYTES),
  DEPTH_FLOAT32(1, Float.BYTES);

  private final int channels;
  private final int valueBytes;

  FrameSamples(int channels, int valueBytes) {
    this.channels = channels;
    this.valueBytes = valueBytes;
  }

  /** Values per pixel: 3 (RGB) or 1 (depth). */
  public int channels() {
    return channels;
  }

  /** Bytes per value. */
  public int valueBytes() {
    return valueBytes;
  }

  public boolean isDepth() {
    return channels == 1;
  }

  public boolean isFloat() {
    return this == RGB_FLOAT32 || this == DEPTH_FLOAT32;
  }

  /** Bytes of one {@code height} x {@code width} frame. */
  public long frameBytes(int height, int width) {
    return (long) height * width * channels * valueBytes;
  }
}
