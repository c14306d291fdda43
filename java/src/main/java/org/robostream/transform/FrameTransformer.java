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

  /** Bytes the native core reads past a scratch buffer's data (RS_TF_SCRATCH_PADDING). */
  private static final long SCRATCH_PADDING = 64;

  /** What a pixel format is for the YUV path, asked of FFmpeg once per format and worker. */
  private record Geometry(boolean yuv8, int chromaWidthShift, int chromaHeightShift) {}

  private final java.util.Map<Integer, Geometry> geometries = new java.util.HashMap<>();
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

  /** {@link #takesYuv8}, remembered per format (the hot path asks at every frame). */
  public boolean takes(int pixelFormat) {
    return geometry(pixelFormat).yuv8();
  }

  private Geometry geometry(int pixelFormat) {
    Geometry g = geometries.get(pixelFormat);
    if (g == null) {
      AVPixFmtDescriptor d = pixelFormat < 0 ? null : avutil.av_pix_fmt_desc_get(pixelFormat);
      boolean known = d != null && !d.isNull();
      g =
          new Geometry(
              takesYuv8(pixelFormat), known ? d.log2_chroma_w() : 0, known ? d.log2_chroma_h() : 0);
      geometries.put(pixelFormat, g);
    }
    return g;
  }

  /** Packed bytes of a {@link #takes} picture, as {@link #yuv8Bytes} (without asking FFmpeg). */
  public long bytesOf(int width, int height, int pixelFormat) {
    Geometry g = geometry(pixelFormat);
    long cw = (width + (1L << g.chromaWidthShift()) - 1) >> g.chromaWidthShift();
    long ch = (height + (1L << g.chromaHeightShift()) - 1) >> g.chromaHeightShift();
    return (long) width * height + 2 * cw * ch;
  }

  /**
   * {@code dst} = the packed picture at {@code src} with {@code ops} applied; {@code dst} holds
   * {@link #bytesOf} and overlaps nothing.
   */
  public void transformYuv8(
      long src, long dst, int width, int height, int pixelFormat, boolean fullRange, float[] ops) {
    Geometry g = geometry(pixelFormat);
    if (!g.yuv8()) {
      throw new IllegalArgumentException(
          "pixel format " + pixelFormat + " is not 8-bit planar YUV");
    }
    long bytes = bytesOf(width, height, pixelFormat);
    NativeStatus.check(
        NativeCore.rs_transform_yuv8(
            src,
            dst,
            scratch(bytes + SCRATCH_PADDING),
            width,
            height,
            g.chromaWidthShift(),
            g.chromaHeightShift(),
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
            scratch(2 * bytes + SCRATCH_PADDING),
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
