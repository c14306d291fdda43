package org.robostream.arrow;

/**
 * Element type of a {@link Tensor}: frames are {@link #UINT8} RGB or {@link #FLOAT32} RGB in [0,
 * 1]; table columns are {@link #FLOAT32}, {@link #FLOAT64}, {@link #INT64} or {@link #BOOL}. {@code
 * BOOL} is one byte per value, 0 or 1, as trainers' boolean tensors are (torch.bool, numpy's
 * bool_), not Arrow's bit-packed bitmaps. Little-endian, as every Arrow buffer.
 */
public enum DType {
  UINT8(1, 0),
  FLOAT32(4, 1),
  FLOAT64(8, -1),
  INT64(8, -1),
  BOOL(1, -1);

  private final int bytes;
  private final int frameCode;

  DType(int bytes, int frameCode) {
    this.bytes = bytes;
    this.frameCode = frameCode;
  }

  /** Bytes per value. */
  public int bytes() {
    return bytes;
  }

  /** Whether frame columns can hold this type (the native core's RS_DTYPE_* values). */
  public boolean isFrameType() {
    return frameCode >= 0;
  }

  /** The RS_DTYPE_* value of a frame column of this type. */
  int frameCode() {
    if (!isFrameType()) {
      throw new IllegalArgumentException("frames are uint8 or float32, not " + this);
    }
    return frameCode;
  }
}
