package org.robostream.video;

import static org.bytedeco.ffmpeg.global.avutil.av_image_copy_to_buffer;
import static org.bytedeco.ffmpeg.global.avutil.av_image_fill_arrays;
import static org.bytedeco.ffmpeg.global.avutil.av_image_get_buffer_size;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.robostream.nativecore.NativeAddress;

/**
 * A picture packed into one block (FFmpeg's image layout with alignment 1: planes back to back, no
 * padding), to be held compactly and converted to RGB later. Not thread-safe: one per thread (it
 * keeps JavaCPP scratch pointers).
 */
public final class PackedPicture implements AutoCloseable {
  private final PointerPointer<BytePointer> planes = new PointerPointer<>(4);
  private final IntPointer strides = new IntPointer(4);
  private final SwscaleConverter converter = new SwscaleConverter();

  /** Bytes {@code picture} takes packed. */
  public static long packedBytes(int width, int height, int pixelFormat) {
    int n = av_image_get_buffer_size(pixelFormat, width, height, 1);
    if (n < 0) {
      throw new IllegalArgumentException("pixel format " + pixelFormat + " cannot be packed");
    }
    return n;
  }

  /** Copies {@code picture}'s planes into {@code dst} (at least {@link #packedBytes} bytes). */
  public void pack(RawPicture p, long dst) {
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
   * Converts a packed picture at {@code src} to RGB in {@code layout} at {@code dst}, a frame of
   * {@code dstWidth} x {@code dstHeight} (scaled in the same swscale pass when that is not the
   * picture's size): uint8, or with {@code unitFloats} float32 in [0, 1] from its full-precision
   * samples.
   */
  public void toRgb(
      long src,
      int width,
      int height,
      int pixelFormat,
      ColorSpec color,
      long dst,
      int dstWidth,
      int dstHeight,
      FrameLayout layout,
      boolean unitFloats) {
    long[] addresses = new long[3];
    int[] s = new int[3];
    unpack(src, width, height, pixelFormat, addresses, s);
    converter.convert(
        addresses,
        s,
        width,
        height,
        pixelFormat,
        color,
        dst,
        dstWidth,
        dstHeight,
        layout,
        unitFloats);
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

  /**
   * Writes {@code p} into a slot of {@code samples} at {@code dst} as a CPU decoder writes a
   * destination's slot: a depth map's values, or RGB in {@code layout} ({@code dstWidth} x {@code
   * dstHeight}, scaled in the same swscale pass), float32 from the picture's own samples when
   * {@code samples} is float.
   */
  public void write(
      RawPicture p,
      long dst,
      int dstWidth,
      int dstHeight,
      FrameLayout layout,
      FrameSamples samples) {
    if (samples.isDepth()) {
      DepthSamples.copy(p, dst, samples);
      return;
    }
    converter.convert(
        p.planes(),
        p.strides(),
        p.width(),
        p.height(),
        p.pixelFormat(),
        p.color(),
        dst,
        dstWidth,
        dstHeight,
        layout,
        samples.isFloat());
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
    converter.close();
    planes.close();
    strides.close();
  }
}
