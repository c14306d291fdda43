package org.robostream.codec;

/**
 * One decoded picture, handed to a {@link PictureReceiver}: the receiver decides where it goes —
 * kept as the codec produced it ({@link #raw()}, host planes), or converted into memory of its own
 * ({@link #convertInto}: RGB or a depth map's values, at any size the conversion can scale to). A
 * picture NVDEC decoded lives on the GPU ({@link #onGpu()}): it has no host planes and converts
 * into device memory of its GPU only.
 *
 * <p>Valid only inside the {@link PictureReceiver#accept} call that receives it: its memory belongs
 * to the decoder (or to whoever made the view). Not thread-safe: used on the decoding thread.
 */
public interface DecodedPicture {
  int width();

  int height();

  /**
   * Whether the picture is in GPU memory (NVDEC): {@link #raw()} fails, conversions write there.
   */
  boolean onGpu();

  /** Whether its samples have more than 8 bits (10-bit video, 16-bit PNG). */
  boolean deep();

  /**
   * The picture's planes in host memory, as the codec left them; an {@link
   * UnsupportedVideoException} for a picture on the GPU.
   */
  RawPicture raw();

  /**
   * Converts the picture into {@code slot} (another size than the picture's is scaled by the same
   * conversion; depth maps and libyuv do not scale and refuse it): host memory for a picture in
   * host memory, device memory of its GPU for one on the GPU.
   */
  void convertInto(Slot slot);
}
