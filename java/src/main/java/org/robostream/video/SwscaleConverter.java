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
 * for HWC, planar GBR (planes mapped onto R, G, B) for CHW. A slot of another size than the picture
 * gets the picture scaled (bilinear) by the same {@code sws_scale} call that converts it.
 *
 * <p>Not thread-safe: one per decoder. Owns a cached SwsContext; {@link #close()} frees it.
 */
public final class SwscaleConverter implements AutoCloseable {
  private SwsContext context;
  private int lastKey = Integer.MIN_VALUE;
  private final PointerPointer<BytePointer> dstPlanes = new PointerPointer<>(4);
  private final IntPointer dstStrides = new IntPointer(4);

  private final PointerPointer<BytePointer> srcPlanes = new PointerPointer<>(4);
  private final IntPointer srcStrides = new IntPointer(4);

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
        frame.width(),
        frame.height(),
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
    convert(planes, strides, w, h, format, color, dst, w, h, layout);
  }

  /**
   * Like {@link #convert(long[], int[], int, int, int, ColorSpec, long, FrameLayout)} into a slot
   * of {@code dstWidth} x {@code dstHeight} (dstWidth*dstHeight*3 bytes): scaled and converted in
   * one pass.
   */
  public void convert(
      long[] planes,
      int[] strides,
      int w,
      int h,
      int format,
      ColorSpec color,
      long dst,
      int dstWidth,
      int dstHeight,
      FrameLayout layout) {
    for (int i = 0; i < 3; i++) {
      srcPlanes.put(i, NativeAddress.bytesAt(planes[i], (long) strides[i] * h));
      srcStrides.put(i, strides[i]);
    }
    srcPlanes.put(3, (BytePointer) null);
    srcStrides.put(3, 0);
    convert(srcPlanes, srcStrides, w, h, format, color, dst, dstWidth, dstHeight, layout);
  }

  private void convert(
      PointerPointer<?> data,
      IntPointer linesize,
      int w,
      int h,
      int format,
      ColorSpec color,
      long dst,
      int dstWidth,
      int dstHeight,
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
            dstWidth,
            dstHeight,
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
    long plane = (long) dstWidth * dstHeight;
    if (layout == FrameLayout.HWC) {
      dstPlanes.put(0, NativeAddress.bytesAt(dst, plane * 3));
      dstStrides.put(0, dstWidth * 3);
    } else {
      // GBRP plane order is G, B, R; CHW wants R, G, B.
      dstPlanes.put(0, NativeAddress.bytesAt(dst + plane, plane * 3));
      dstPlanes.put(1, NativeAddress.bytesAt(dst + 2 * plane, plane * 3));
      dstPlanes.put(2, NativeAddress.bytesAt(dst, plane * 3));
      dstStrides.put(0, dstWidth).put(1, dstWidth).put(2, dstWidth);
    }
    // sws_scale returns the rows it wrote into the destination.
    int rows = sws_scale(context, (PointerPointer) data, linesize, 0, h, dstPlanes, dstStrides);
    if (rows != dstHeight) {
      throw new IllegalStateException("swscale converted " + rows + " of " + dstHeight + " rows");
    }
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
  }
}
