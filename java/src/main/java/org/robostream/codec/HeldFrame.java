package org.robostream.codec;

/**
 * One decoded picture held in a block of memory: what the loader's frame devices keep while a
 * sample waits in the shuffle buffer, and what the frame cache stores and serves. Its {@link
 * HeldForm} says what the bytes are: packed as the codec produced them (FFmpeg's image layout with
 * alignment 1, as {@link PicturePacker} packs them; the only form the frame cache holds), or
 * already converted on the batch device (RGB uint8 in the output layout, or the column's own
 * values). The block belongs to whoever took it; the address is valid as long as they keep it.
 * Immutable.
 *
 * @param color null where the decoder gave none (a depth map's gray picture, a converted frame)
 * @param ptsSeconds the frame's pts in its file, as decoded
 * @param frameIndex the frame's position in its file, as decoded (-1 where it is not recorded)
 */
public record HeldFrame(
    long address,
    long bytes,
    int width,
    int height,
    HeldForm form,
    ColorSpec color,
    double ptsSeconds,
    long frameIndex) {
  /** The same picture held at another address (a transformed copy of it). */
  public HeldFrame at(long other) {
    return new HeldFrame(other, bytes, width, height, form, color, ptsSeconds, frameIndex);
  }

  /** Whether the frame is already converted on the batch device (at the batch column's size). */
  public boolean isConverted() {
    return form instanceof HeldForm.Converted;
  }

  /**
   * The FFmpeg pixel format of a packed frame; an {@link IllegalStateException} for a converted
   * one, which has none.
   */
  public int pixelFormat() {
    if (form instanceof HeldForm.Packed packed) {
      return packed.pixelFormat();
    }
    throw new IllegalStateException(
        "a frame converted on the batch device (" + form + ") has no pixel format");
  }
}
