package org.robostream.arrow;

/** Value type of a frame column: RGB bytes, or RGB as float32 in [0, 1]. */
public enum FrameValueType {
  UINT8(0, 1),
  FLOAT32(1, 4);

  private final int nativeCode;
  private final int bytes;

  FrameValueType(int nativeCode, int bytes) {
    this.nativeCode = nativeCode;
    this.bytes = bytes;
  }

  /** The RS_DTYPE_* value of the native core. */
  public int nativeCode() {
    return nativeCode;
  }

  /** Bytes per value. */
  public int bytes() {
    return bytes;
  }
}
