package org.robostream.codec;

import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_GBRP;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_GBRPF32LE;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_RGB24;
import static org.bytedeco.ffmpeg.global.avutil.av_image_fill_arrays;
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
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;

/**
 * YUV (any FFmpeg pixel format) to RGB with swscale, writing straight into the slot: uint8 as
 * packed RGB24 for HWC, planar GBR (planes mapped onto R, G, B) for CHW; or float32 in [0, 1] from
 * the full-precision samples (swscale's planar GBR float, FFmpeg's {@code gbrpf32le}: a 10-bit
 * source keeps its precision), planes mapped onto R, G, B for CHW, interleaved from a planar
 * scratch frame for HWC (swscale has no packed float output). A slot of another size than the
 * picture gets the picture scaled (bilinear) by the same {@code sws_scale} call that converts it.
 *
 * <p>Not thread-safe: one per decoder. Owns a cached SwsContext and its scratch frames (planar
 * floats for HWC float32, a padded frame for RGB24 widths that are no multiple of 16); {@link
 * #close()} frees them.
 */
public final class SwscaleConverter implements AutoCloseable {
  private static final long SCRATCH_PADDING = 4096; // far more than a row's 16-pixel overrun
  private SwsContext context;
  private ConversionKey lastKey;
  private final PointerPointer<BytePointer> dstPlanes = new PointerPointer<>(4);
  private final IntPointer dstStrides = new IntPointer(4);

  private final PointerPointer<BytePointer> srcPlanes = new PointerPointer<>(4);
  private final IntPointer srcStrides = new IntPointer(4);
  private HostFrameBuffer planarFloats; // HWC float output: swscale's planes before interleaving
  private BytePointer scratch; // RGB24 frames of widths that are no multiple of 16, see convert

  /** Converts {@code frame} into {@code slot}: RGB, uint8 or float32 by the slot's samples. */
  public void convert(AVFrame frame, ColorSpec color, Slot slot) {
    convert(
        frame.data(), frame.linesize(), frame.width(), frame.height(), frame.format(), color, slot);
  }

  /** Converts a picture given by its host planes (Y, U, V) and strides into {@code slot}. */
  public void convert(RawPicture picture, Slot slot) {
    int h = picture.height();
    for (int i = 0; i < 3; i++) {
      srcPlanes.put(i, NativeAddress.bytesAt(picture.planes()[i], (long) picture.strides()[i] * h));
      srcStrides.put(i, picture.strides()[i]);
    }
    srcPlanes.put(3, (BytePointer) null);
    srcStrides.put(3, 0);
    convert(
        srcPlanes, srcStrides, picture.width(), h, picture.pixelFormat(), picture.color(), slot);
  }

  /**
   * Converts a picture packed at {@code src} (FFmpeg's image layout, alignment 1: see {@link
   * PicturePacker}) into {@code slot}: its planes are found inside the block, not copied.
   */
  public void convertPacked(
      long src, int width, int height, int pixelFormat, ColorSpec color, Slot slot) {
    long size = PicturePacker.packedBytes(width, height, pixelFormat);
    int rc =
        av_image_fill_arrays(
            srcPlanes, srcStrides, NativeAddress.bytesAt(src, size), pixelFormat, width, height, 1);
    if (rc < 0) {
      throw new IllegalStateException("cannot unpack pixel format " + pixelFormat);
    }
    convert(srcPlanes, srcStrides, width, height, pixelFormat, color, slot);
  }

  /**
   * uint8: packed RGB24 (HWC) or GBR planes mapped onto the slot's R, G, B planes (CHW). float32:
   * swscale's planar float output onto the slot's planes (CHW), or into a scratch frame that is
   * then interleaved into the slot (HWC).
   */
  private void convert(
      PointerPointer<?> data,
      IntPointer linesize,
      int w,
      int h,
      int format,
      ColorSpec color,
      Slot slot) {
    long dst = slot.address();
    int dstWidth = slot.width();
    int dstHeight = slot.height();
    FrameLayout layout = slot.layout();
    boolean unitFloats = slot.samples().isFloat();
    boolean packed = layout == FrameLayout.HWC;
    int dstFormat = unitFloats ? AV_PIX_FMT_GBRPF32LE : packed ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_GBRP;
    prepare(w, h, format, dstWidth, dstHeight, dstFormat, color);
    int valueBytes = unitFloats ? Float.BYTES : 1;
    long planeBytes = (long) dstWidth * dstHeight * valueBytes;
    long target = dst;
    // swscale's SIMD YUV-to-RGB24 converters write whole 16-pixel blocks, so for a width that is
    // not a multiple of 16 each row runs on into the next one and the last row up to 45 bytes past
    // the frame (measured: 24 bytes for widths 24, 40, 72 and 424), which would corrupt whatever
    // follows a slot. Such frames are converted into a padded scratch frame and copied.
    boolean padded = packed && !unitFloats && dstWidth % 16 != 0;
    if (packed && !unitFloats) {
      target = padded ? scratch(planeBytes * 3) : dst;
      dstPlanes.put(0, NativeAddress.bytesAt(target, planeBytes * 3));
      dstStrides.put(0, dstWidth * 3);
    } else {
      if (packed) {
        target = planarFloats(dstWidth, dstHeight);
      }
      mapRgbPlanes(target, planeBytes, dstWidth * valueBytes);
    }
    scale(data, linesize, h, dstHeight);
    if (padded) {
      NativeAddress.copy(dst, target, planeBytes * 3);
    } else if (target != dst) {
      interleave(target, dst, dstWidth * dstHeight);
    }
  }

  private long planarFloats(int w, int h) {
    if (planarFloats == null || planarFloats.width() != w || planarFloats.height() != h) {
      planarFloats = new HostFrameBuffer(1, h, w, FrameLayout.CHW, FrameSamples.RGB_FLOAT32);
    }
    return planarFloats.slotAddress(0);
  }

  /** Planar R, G, B floats at {@code planar} to packed RGB floats at {@code dst}. */
  private static void interleave(long planar, long dst, int pixels) {
    long planeBytes = (long) pixels * Float.BYTES;
    java.nio.FloatBuffer from =
        NativeAddress.bytesAt(planar, planeBytes * 3)
            .asByteBuffer()
            .order(java.nio.ByteOrder.nativeOrder())
            .asFloatBuffer();
    java.nio.FloatBuffer to =
        NativeAddress.bytesAt(dst, planeBytes * 3)
            .asByteBuffer()
            .order(java.nio.ByteOrder.nativeOrder())
            .asFloatBuffer();
    for (int i = 0; i < pixels; i++) {
      to.put(3 * i, from.get(i));
      to.put(3 * i + 1, from.get(pixels + i));
      to.put(3 * i + 2, from.get(2 * pixels + i));
    }
  }

  /** GBR planes (swscale's order) onto the R, G, B planes of a CHW frame at {@code dst}. */
  private void mapRgbPlanes(long dst, long planeBytes, int stride) {
    dstPlanes.put(0, NativeAddress.bytesAt(dst + planeBytes, planeBytes));
    dstPlanes.put(1, NativeAddress.bytesAt(dst + 2 * planeBytes, planeBytes));
    dstPlanes.put(2, NativeAddress.bytesAt(dst, planeBytes));
    dstStrides.put(0, stride).put(1, stride).put(2, stride);
  }

  /**
   * The cached context for this conversion, with the picture's matrix and range. The details are
   * set again whenever anything about the conversion changes: sws_getCachedContext makes a new
   * context (with swscale's default matrix) when a size or format differs, and one converter may
   * convert pictures of several cameras in turn.
   */
  private void prepare(
      int w, int h, int format, int dstWidth, int dstHeight, int dstFormat, ColorSpec color) {
    // The deprecated yuvj formats make swscale apply its own range handling on top of ours.
    int srcFormat = nonJpegFormat(format);
    ConversionKey key = new ConversionKey(w, h, srcFormat, dstWidth, dstHeight, dstFormat, color);
    if (key.equals(lastKey) && context != null && !context.isNull()) {
      // The same conversion as the last frame's: sws_getCachedContext would return this context
      // after comparing every option (measured: a fifth of sws_scale's own time per 256x256 frame).
      return;
    }
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
    IntPointer coefficients = sws_getCoefficients(swsColorSpace(color.matrix()));
    sws_setColorspaceDetails(
        context, coefficients, color.fullRange() ? 1 : 0, coefficients, 1, 0, 1 << 16, 1 << 16);
    lastKey = key;
  }

  /** Everything the cached context and its colour details depend on. */
  private record ConversionKey(
      int w, int h, int srcFormat, int dstWidth, int dstHeight, int dstFormat, ColorSpec color) {}

  private void scale(PointerPointer<?> data, IntPointer linesize, int h, int dstHeight) {
    // sws_scale returns the rows it wrote into the destination.
    int rows = sws_scale(context, (PointerPointer) data, linesize, 0, h, dstPlanes, dstStrides);
    if (rows != dstHeight) {
      throw new IllegalStateException("swscale converted " + rows + " of " + dstHeight + " rows");
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
    planarFloats = null;
    srcPlanes.close();
    srcStrides.close();
    if (scratch != null) {
      scratch.close();
      scratch = null;
    }
  }
}
