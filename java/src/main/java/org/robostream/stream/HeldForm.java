package org.robostream.stream;

/**
 * What the bytes of a held frame ({@link PackedFrame}) are: packed as the codec produced them,
 * converted when their batch is built (the host path), or already converted on the batch device
 * (the device path). A type instead of sentinel pixel formats: code that needs an FFmpeg pixel
 * format can only get one from a {@link Packed} frame.
 */
sealed interface HeldForm permits HeldForm.Packed, HeldForm.Converted {
  /** Packed with FFmpeg's image layout (alignment 1) in {@code pixelFormat}, an AVPixelFormat. */
  record Packed(int pixelFormat) implements HeldForm {}

  /** Converted at decode time, at the batch column's size, in its layout. */
  enum Converted implements HeldForm {
    /** RGB uint8. */
    RGB_UINT8,
    /** The column's own values: float32 RGB of a deeper-than-8-bit source, a depth map's values. */
    COLUMN_VALUES
  }
}
