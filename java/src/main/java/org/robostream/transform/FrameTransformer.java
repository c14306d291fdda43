package org.robostream.transform;

import org.bytedeco.ffmpeg.avutil.AVPixFmtDescriptor;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.Pointer;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeStatus;
import org.robostream.video.FrameLayout;

/**
 * Runs drawn operations ({@link ImageTransformsConfig#draw}) on one frame in native code: on a
 * packed 8-bit planar YUV picture before its conversion to RGB ({@link #transformYuv8}: colour in
 * one pass over the planes, the affine on every plane at its own size, sharpness on luma), or on an
 * RGB frame in place ({@link #transformRgb}). Keeps its scratch memory between calls (malloc'ed,
 * grown to the largest frame, freed by {@link #close}).
 *
 * <p>Not thread-safe: one per worker.
 */
public final class FrameTransformer implements AutoCloseable {
  /** Floats per operation in an ops array (RS_TF_OP_FLOATS). */
  public static final int OP_FLOATS = 4;

  private Pointer scratch;
  private long scratchBytes;
  private Pointer second;
  private long secondBytes;

  /**
   * Whether {@link #transformYuv8} takes pictures of {@code pixelFormat}: 8-bit planar YUV with
   * three planes and chroma at full or half resolution (yuv420p, yuvj420p, yuv422p, yuv444p, ...).
   */
  public static boolean takesYuv8(int pixelFormat) {
    AVPixFmtDescriptor d = pixelFormat < 0 ? null : avutil.av_pix_fmt_desc_get(pixelFormat);
    if (d == null || d.isNull() || d.nb_components() != 3) {
      return false;
    }
    long flags = d.flags();
    boolean planar = (flags & avutil.AV_PIX_FMT_FLAG_PLANAR) != 0;
    boolean rgb = (flags & avutil.AV_PIX_FMT_FLAG_RGB) != 0;
    boolean depth8 = d.comp(0).depth() == 8 && d.comp(1).depth() == 8 && d.comp(2).depth() == 8;
    boolean separatePlanes =
        d.comp(0).plane() == 0 && d.comp(1).plane() == 1 && d.comp(2).plane() == 2;
    return planar
        && !rgb
        && depth8
        && separatePlanes
        && d.log2_chroma_w() <= 1
        && d.log2_chroma_h() <= 1;
  }

  /**
   * Packed bytes of a {@link #takesYuv8} picture: the size of the block {@link #transformYuv8}
   * writes.
   */
  public static long yuv8Bytes(int width, int height, int pixelFormat) {
    AVPixFmtDescriptor d = avutil.av_pix_fmt_desc_get(pixelFormat);
    long bytes =
        NativeCore.rs_transform_yuv8_bytes(width, height, d.log2_chroma_w(), d.log2_chroma_h());
    if (bytes < 0) {
      NativeStatus.check((int) -bytes, "cannot transform a " + width + "x" + height + " picture");
    }
    return bytes;
  }

  /**
   * {@code dst} = the packed picture at {@code src} with {@code ops} applied; {@code dst} holds
   * {@link #yuv8Bytes} and overlaps nothing.
   */
  public void transformYuv8(
      long src, long dst, int width, int height, int pixelFormat, boolean fullRange, float[] ops) {
    AVPixFmtDescriptor d = avutil.av_pix_fmt_desc_get(pixelFormat);
    long bytes = yuv8Bytes(width, height, pixelFormat);
    NativeStatus.check(
        NativeCore.rs_transform_yuv8(
            src,
            dst,
            scratch(bytes),
            width,
            height,
            d.log2_chroma_w(),
            d.log2_chroma_h(),
            fullRange ? 1 : 0,
            ops,
            ops.length / OP_FLOATS),
        "cannot transform a " + width + "x" + height + " picture");
  }

  /**
   * {@code ops} applied in place to the RGB frame at {@code frame} ({@code width} x {@code height}
   * x 3 values of uint8, or of float32 in [0, 1] with {@code isFloat}).
   */
  public void transformRgb(
      long frame, int width, int height, FrameLayout layout, boolean isFloat, float[] ops) {
    long bytes = 3L * width * height * (isFloat ? 4 : 1);
    NativeStatus.check(
        NativeCore.rs_transform_rgb(
            frame,
            scratch(bytes),
            width,
            height,
            layout.nativeCode(),
            isFloat ? 1 : 0,
            ops,
            ops.length / OP_FLOATS),
        "cannot transform a " + width + "x" + height + " frame");
  }

  /**
   * A block of at least {@code bytes} for the caller's own use until the next call: the YUV path's
   * destination picture, which the conversion to RGB then reads.
   */
  public long pictureBlock(long bytes) {
    if (secondBytes < bytes) {
      free(second);
      second = allocate(bytes);
      secondBytes = bytes;
    }
    return second.address();
  }

  private long scratch(long bytes) {
    if (scratchBytes < bytes) {
      free(scratch);
      scratch = allocate(bytes);
      scratchBytes = bytes;
    }
    return scratch.address();
  }

  private static Pointer allocate(long bytes) {
    Pointer p = Pointer.malloc(bytes);
    if (p == null || p.isNull()) {
      throw new OutOfMemoryError("cannot allocate " + bytes + " bytes for image transforms");
    }
    return p;
  }

  private static void free(Pointer p) {
    if (p != null) {
      Pointer.free(p);
    }
  }

  @Override
  public void close() {
    free(scratch);
    free(second);
    scratch = null;
    second = null;
    scratchBytes = 0;
    secondBytes = 0;
  }
}
