package org.robostream.arrow;

import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;

/**
 * What one frame column of a {@link FrameBatch} holds: {@code positions} frames per row (1, or a
 * time window of T), each {@code height x width} with {@code channels} values per pixel in {@code
 * layout}, as {@code dtype}: RGB (3 channels) uint8 or float32 in [0, 1], or a depth map (1
 * channel) uint16 or float32, the decoded sample values (see {@link FrameSamples}). Each column has
 * its own size, so cameras of different sizes share a batch. Immutable.
 */
public record FrameColumn(
    String name,
    int positions,
    int height,
    int width,
    FrameLayout layout,
    DType dtype,
    int channels) {
  public FrameColumn {
    if (positions < 1 || height < 1 || width < 1) {
      throw new IllegalArgumentException(
          "frame column " + name + " of " + positions + " x " + height + "x" + width + " frames");
    }
    boolean rgb = channels == 3 && (dtype == DType.UINT8 || dtype == DType.FLOAT32);
    boolean depth = channels == 1 && (dtype == DType.UINT16 || dtype == DType.FLOAT32);
    if (!rgb && !depth) {
      throw new IllegalArgumentException(
          "frame column "
              + name
              + ": frames are RGB (3 channels) uint8 or float32, or depth (1 channel) uint16 or"
              + " float32, not "
              + channels
              + " channels of "
              + dtype);
    }
  }

  /** An RGB column (3 channels). */
  public FrameColumn(
      String name, int positions, int height, int width, FrameLayout layout, DType dtype) {
    this(name, positions, height, width, layout, dtype, 3);
  }

  /** A column of {@code samples}' channels and value type. */
  public static FrameColumn of(
      String name, int positions, int height, int width, FrameLayout layout, FrameSamples samples) {
    DType dtype =
        samples.isFloat()
            ? DType.FLOAT32
            : samples == FrameSamples.DEPTH_UINT16 ? DType.UINT16 : DType.UINT8;
    return new FrameColumn(name, positions, height, width, layout, dtype, samples.channels());
  }

  /** What a decoder writes into this column's slots. */
  public FrameSamples samples() {
    if (channels == 1) {
      return dtype == DType.UINT16 ? FrameSamples.DEPTH_UINT16 : FrameSamples.DEPTH_FLOAT32;
    }
    return dtype == DType.UINT8 ? FrameSamples.RGB_UINT8 : FrameSamples.RGB_FLOAT32;
  }

  /** One row's shape: [C, H, W] or [H, W, C], with a leading T for a window. */
  public int[] rowShape() {
    int[] frame =
        layout == FrameLayout.CHW
            ? new int[] {channels, height, width}
            : new int[] {height, width, channels};
    return positions == 1 ? frame : new int[] {positions, frame[0], frame[1], frame[2]};
  }

  /** Values of one frame (C x H x W). */
  public long frameValues() {
    return (long) channels * height * width;
  }

  public long frameBytes() {
    return frameValues() * dtype.bytes();
  }

  /** The core's RS_DTYPE_* value of this column (robostream.h). */
  int nativeDtype() {
    return switch (samples()) {
      case RGB_UINT8 -> 0;
      case RGB_FLOAT32 -> 1;
      case DEPTH_UINT16 -> 2;
      case DEPTH_FLOAT32 -> 3;
    };
  }
}
