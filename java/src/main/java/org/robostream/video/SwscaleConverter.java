package org.robostream.video;

import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_GBRP;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_RGB24;
import static org.bytedeco.ffmpeg.global.swscale.SWS_BILINEAR;
import static org.bytedeco.ffmpeg.global.swscale.SWS_CS_BT2020;
import static org.bytedeco.ffmpeg.global.swscale.SWS_CS_ITU601;
import static org.bytedeco.ffmpeg.global.swscale.SWS_CS_ITU709;
import static org.bytedeco.ffmpeg.global.swscale.sws_freeContext;
import static org.bytedeco.ffmpeg.global.swscale.sws_getCachedContext;
import static org.bytedeco.ffmpeg.global.swscale.sws_getCoefficients;
import static org.bytedeco.ffmpeg.global.swscale.sws_scale;
import static org.bytedeco.ffmpeg.global.swscale.sws_setColorspaceDetails;

import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.swscale.SwsContext;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.robostream.nativecore.NativeAddress;

/**
 * YUV (any FFmpeg pixel format) to RGB24 with swscale, writing straight into the slot: packed RGB24
 * for HWC, planar GBR (planes mapped onto R, G, B) for CHW.
 *
 * <p>Not thread-safe: one per decoder. Owns a cached SwsContext and, for widths that are no
 * multiple of 16, a scratch frame; {@link #close()} frees them.
 */
public final class SwscaleConverter implements AutoCloseable {
  private static final long SCRATCH_PADDING = 4096; // far more than a row's 16-pixel overrun
  private SwsContext context;
  private int lastKey = Integer.MIN_VALUE;
  private final PointerPointer<BytePointer> dstPlanes = new PointerPointer<>(4);
  private final IntPointer dstStrides = new IntPointer(4);

  private final PointerPointer<BytePointer> srcPlanes = new PointerPointer<>(4);
  private final IntPointer srcStrides = new IntPointer(4);
  private BytePointer scratch; // HWC frames of widths that are no multiple of 16, see convert

  /** Converts {@code frame} into {@code dst} (width*height*3 bytes). */
  public void convert(AVFrame frame, ColorSpec color, long dst, FrameLayout layout) {
    convert(
        frame.data(),
        frame.linesize(),
        frame.width(),
        frame.height(),
        frame.format(),
        color,
        dst,
        layout);
  }

  /**
   * Converts a picture given by raw plane addresses (Y, U, V) and strides in FFmpeg pixel format
   * {@code format} (for example dav1d's pictures).
   */
  public void convert(
      long[] planes,
      int[] strides,
      int w,
      int h,
      int format,
      ColorSpec color,
      long dst,
      FrameLayout layout) {
    for (int i = 0; i < 3; i++) {
      srcPlanes.put(i, NativeAddress.bytesAt(planes[i], (long) strides[i] * h));
      srcStrides.put(i, strides[i]);
    }
    srcPlanes.put(3, (BytePointer) null);
    srcStrides.put(3, 0);
    convert(srcPlanes, srcStrides, w, h, format, color, dst, layout);
  }

  private void convert(
      PointerPointer<?> data,
      IntPointer linesize,
      int w,
      int h,
      int format,
      ColorSpec color,
      long dst,
      FrameLayout layout) {
    int dstFormat = layout == FrameLayout.HWC ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_GBRP;
    // The deprecated yuvj formats make swscale apply its own range handling on top of ours.
    int srcFormat = nonJpegFormat(format);
    context =
        sws_getCachedContext(
            context,
            w,
            h,
            srcFormat,
            w,
            h,
            dstFormat,
            SWS_BILINEAR,
            null,
            null,
            (DoublePointer) null);
    if (context == null || context.isNull()) {
      throw new IllegalStateException("swscale cannot convert pixel format " + format);
    }
    int key = (color.matrix().ordinal() * 2 + (color.fullRange() ? 1 : 0)) * 1000 + dstFormat;
    if (key != lastKey) {
      IntPointer coefficients = sws_getCoefficients(swsColorSpace(color.matrix()));
      sws_setColorspaceDetails(
          context, coefficients, color.fullRange() ? 1 : 0, coefficients, 1, 0, 1 << 16, 1 << 16);
      lastKey = key;
    }
    long plane = (long) w * h;
    // swscale's SIMD YUV-to-RGB24 converters write whole 16-pixel blocks, so for a width that is
    // not a multiple of 16 each row runs on into the next one and the last row up to 45 bytes past
    // the frame (measured: 24 bytes for widths 24, 40, 72 and 424), which would corrupt whatever
    // follows a slot. Such frames are converted into a padded scratch frame and copied.
    boolean padded = layout == FrameLayout.HWC && w % 16 != 0;
    long target = padded ? scratch(plane * 3) : dst;
    if (layout == FrameLayout.HWC) {
      dstPlanes.put(0, NativeAddress.bytesAt(target, plane * 3));
      dstStrides.put(0, w * 3);
    } else {
      // GBRP plane order is G, B, R; CHW wants R, G, B.
      dstPlanes.put(0, NativeAddress.bytesAt(dst + plane, plane * 3));
      dstPlanes.put(1, NativeAddress.bytesAt(dst + 2 * plane, plane * 3));
      dstPlanes.put(2, NativeAddress.bytesAt(dst, plane * 3));
      dstStrides.put(0, w).put(1, w).put(2, w);
    }
    int rows = sws_scale(context, (PointerPointer) data, linesize, 0, h, dstPlanes, dstStrides);
    if (rows != h) {
      throw new IllegalStateException("swscale converted " + rows + " of " + h + " rows");
    }
    if (padded) {
      NativeAddress.copy(dst, target, plane * 3);
    }
  }

  /** A scratch frame of at least {@code bytes} plus room for swscale's overrun. */
  private long scratch(long bytes) {
    long needed = bytes + SCRATCH_PADDING;
    if (scratch == null || scratch.capacity() < needed) {
      if (scratch != null) {
        scratch.close();
      }
      scratch = new BytePointer(needed);
    }
    return scratch.address();
  }

  private static int nonJpegFormat(int format) {
    if (format == org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ420P) {
      return org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P;
    }
    if (format == org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ422P) {
      return org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV422P;
    }
    if (format == org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ444P) {
      return org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV444P;
    }
    return format;
  }

  private static int swsColorSpace(ColorSpec.Matrix matrix) {
    return switch (matrix) {
      case BT709 -> SWS_CS_ITU709;
      case BT2020 -> SWS_CS_BT2020;
      case BT601 -> SWS_CS_ITU601;
    };
  }

  @Override
  public void close() {
    if (context != null) {
      sws_freeContext(context);
      context = null;
    }
    dstPlanes.close();
    dstStrides.close();
    srcPlanes.close();
    srcStrides.close();
    if (scratch != null) {
      scratch.close();
      scratch = null;
    }
  }
}
