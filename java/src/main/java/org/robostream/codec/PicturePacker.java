package org.robostream.codec;

import static org.bytedeco.ffmpeg.global.avutil.av_image_copy_to_buffer;
import static org.bytedeco.ffmpeg.global.avutil.av_image_fill_arrays;
import static org.bytedeco.ffmpeg.global.avutil.av_image_get_buffer_size;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.robostream.nativecore.NativeAddress;
import org.robostream.video.FrameSamples;

/**
 * Packs a picture into one block (FFmpeg's image layout with alignment 1: planes back to back, no
 * padding) and finds its planes there again. Packed is how the CPU device holds frames and how the
 * frame cache stores them: YUV 4:2:0 is half the bytes of RGB. {@link
 * SwscaleConverter#convertPacked} converts a packed picture. Not thread-safe: one per thread (it
 * keeps JavaCPP scratch pointers).
 */
public final class PicturePacker implements AutoCloseable {
  private final PointerPointer<BytePointer> planes = new PointerPointer<>(4);
  private final IntPointer strides = new IntPointer(4);

  /** Bytes {@code picture} takes packed. */
  public static long packedBytes(int width, int height, int pixelFormat) {
    int n = av_image_get_buffer_size(pixelFormat, width, height, 1);
    if (n < 0) {
      throw new IllegalArgumentException("pixel format " + pixelFormat + " cannot be packed");
    }
    return n;
  }

  /**
   * Copies {@code p}'s planes into {@code dst} (at least {@link #packedBytes} bytes): the frame
   * held there, with the pts and position it was decoded at.
   */
  public HeldFrame pack(RawPicture p, long dst, double ptsSeconds, long frameIndex) {
    long size = packedBytes(p.width(), p.height(), p.pixelFormat());
    for (int i = 0; i < 4; i++) {
      boolean present = i < p.planes().length && p.planes()[i] != 0;
      planes.put(
          i,
          present
              ? NativeAddress.bytesAt(p.planes()[i], (long) p.strides()[i] * p.height())
              : null);
      strides.put(i, present ? p.strides()[i] : 0);
    }
    int rc =
        av_image_copy_to_buffer(
            NativeAddress.bytesAt(dst, size),
            (int) size,
            planes,
            strides,
            p.pixelFormat(),
            p.width(),
            p.height(),
            1);
    if (rc < 0) {
      throw new IllegalStateException("cannot pack pixel format " + p.pixelFormat());
    }
    return new HeldFrame(
        dst,
        size,
        p.width(),
        p.height(),
        new HeldForm.Packed(p.pixelFormat()),
        p.color(),
        ptsSeconds,
        frameIndex);
  }

  /**
   * Copies a packed depth picture's values at {@code src} into {@code dst} as {@code samples} (a
   * depth kind); its format passed {@link DepthSamples#requireDepthMap} when it was decoded.
   */
  public void toDepth(
      long src, int width, int height, int pixelFormat, long dst, FrameSamples samples) {
    long[] addresses = new long[3];
    int[] s = new int[3];
    unpack(src, width, height, pixelFormat, addresses, s);
    DepthSamples.copy(new RawPicture(addresses, s, width, height, pixelFormat, null), dst, samples);
  }

  /**
   * The packed picture at {@code src} seen as a {@link RawPicture} (its planes inside the block),
   * valid while the block is.
   */
  public RawPicture view(long src, int width, int height, int pixelFormat, ColorSpec color) {
    long[] addresses = new long[3];
    int[] s = new int[3];
    unpack(src, width, height, pixelFormat, addresses, s);
    return new RawPicture(addresses, s, width, height, pixelFormat, color);
  }

  /** The first three planes' addresses and strides of the packed picture at {@code src}. */
  private void unpack(long src, int width, int height, int pixelFormat, long[] addresses, int[] s) {
    long size = packedBytes(width, height, pixelFormat);
    int rc =
        av_image_fill_arrays(
            planes, strides, NativeAddress.bytesAt(src, size), pixelFormat, width, height, 1);
    if (rc < 0) {
      throw new IllegalStateException("cannot unpack pixel format " + pixelFormat);
    }
    for (int i = 0; i < 3; i++) {
      BytePointer plane = planes.get(BytePointer.class, i);
      addresses[i] = plane == null ? 0 : plane.address();
      s[i] = strides.get(i);
    }
  }

  @Override
  public void close() {
    planes.close();
    strides.close();
  }
}
