package org.robostream.arrow;

import org.robostream.video.FrameLayout;

/**
 * What one frame column of a {@link FrameBatch} holds: {@code positions} RGB frames per row (1, or
 * a time window of T), each {@code height x width} in {@code layout}, as {@code dtype} (uint8, or
 * float32 in [0, 1]). Each column has its own size, so cameras of different sizes share a batch.
 * Immutable.
 */
public record FrameColumn(
    String name, int positions, int height, int width, FrameLayout layout, DType dtype) {
  public FrameColumn {
    if (positions < 1 || height < 1 || width < 1) {
      throw new IllegalArgumentException(
          "frame column " + name + " of " + positions + " x " + height + "x" + width + " frames");
    }
    if (!dtype.isFrameType()) {
      throw new IllegalArgumentException(
          "frame column " + name + ": frames are uint8 or" + " float32, not " + dtype);
    }
  }

  /** One row's shape: [C, H, W] or [H, W, C], with a leading T for a window. */
  public int[] rowShape() {
    int[] frame =
        layout == FrameLayout.CHW ? new int[] {3, height, width} : new int[] {height, width, 3};
    return positions == 1 ? frame : new int[] {positions, frame[0], frame[1], frame[2]};
  }

  /** Values of one frame (3 x H x W). */
  public long frameValues() {
    return 3L * height * width;
  }

  public long frameBytes() {
    return frameValues() * dtype.bytes();
  }
}
