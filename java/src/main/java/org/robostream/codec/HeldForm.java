package org.robostream.codec;

/**
 * What the bytes of a {@link HeldFrame} are: packed as the codec produced them (the frame cache's
 * frames, and the loader's CPU frame device's, converted when their batch is built), or already
 * converted on the batch device (the CUDA frame device's). A type instead of sentinel pixel
 * formats: code that needs an FFmpeg pixel format can only get one from a {@link Packed} frame.
 */
public sealed interface HeldForm permits HeldForm.Packed, HeldForm.Converted {
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
