package org.robostream.arrow;

/**
 * Element type of a {@link Tensor}: frames are {@link #UINT8} RGB, {@link #FLOAT32} RGB in [0, 1],
 * or a depth map's values as {@link #UINT16} or {@link #FLOAT32} (see {@link FrameColumn}); table
 * columns are {@link #FLOAT32}, {@link #FLOAT64}, {@link #INT64} or {@link #BOOL}. {@code BOOL} is
 * one byte per value, 0 or 1, as trainers' boolean tensors are (torch.bool, numpy's bool_), not
 * Arrow's bit-packed bitmaps. Little-endian, as every Arrow buffer.
 */
public enum DType {
  UINT8(1, true),
  UINT16(2, true),
  FLOAT32(4, true),
  FLOAT64(8, false),
  INT64(8, false),
  BOOL(1, false);

  private final int bytes;
  private final boolean frameType;

  DType(int bytes, boolean frameType) {
    this.bytes = bytes;
    this.frameType = frameType;
  }

  /** Bytes per value. */
  public int bytes() {
    return bytes;
  }

  /** Whether frame columns can hold this type. */
  public boolean isFrameType() {
    return frameType;
  }
}
