package org.robostream.codec;

import static org.bytedeco.ffmpeg.global.avutil.AVCOL_RANGE_JPEG;
import static org.bytedeco.ffmpeg.global.avutil.AVCOL_SPC_BT2020_CL;
import static org.bytedeco.ffmpeg.global.avutil.AVCOL_SPC_BT2020_NCL;
import static org.bytedeco.ffmpeg.global.avutil.AVCOL_SPC_BT470BG;
import static org.bytedeco.ffmpeg.global.avutil.AVCOL_SPC_BT709;
import static org.bytedeco.ffmpeg.global.avutil.AVCOL_SPC_SMPTE170M;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ420P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ422P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ444P;

import org.bytedeco.ffmpeg.avutil.AVFrame;

/**
 * The colour matrix and range used for YUV to RGB conversion. Unspecified matrices fall back to
 * BT.601, which is what FFmpeg's swscale (and so the ffmpeg CLI reference) assumes.
 */
public record ColorSpec(Matrix matrix, boolean fullRange) {
  /** Colour matrices with their RS_MATRIX_* codes. */
  public enum Matrix {
    BT601(6),
    BT709(1),
    BT2020(9);

    private final int nativeCode;

    Matrix(int nativeCode) {
      this.nativeCode = nativeCode;
    }

    public int nativeCode() {
      return nativeCode;
    }

    static Matrix fromNative(int code) {
      for (Matrix m : values()) {
        if (m.nativeCode == code) {
          return m;
        }
      }
      return null;
    }
  }

  /** Maps FFmpeg's AVColorSpace; null when unspecified or unknown. */
  static Matrix fromAvColorSpace(int space) {
    if (space == AVCOL_SPC_BT709) {
      return Matrix.BT709;
    }
    if (space == AVCOL_SPC_BT470BG || space == AVCOL_SPC_SMPTE170M) {
      return Matrix.BT601;
    }
    if (space == AVCOL_SPC_BT2020_NCL || space == AVCOL_SPC_BT2020_CL) {
      return Matrix.BT2020;
    }
    return null;
  }

  /** Frame-level values win over the container's; BT.601 when both are unspecified. */
  static ColorSpec resolve(Matrix frame, Matrix container, boolean fullRange) {
    Matrix m = frame != null ? frame : container != null ? container : Matrix.BT601;
    return new ColorSpec(m, fullRange);
  }

  /**
   * The colours of a decoded {@code frame}: its own matrix and range win over the container's; the
   * deprecated yuvj formats (JPEG's) are full range.
   */
  static ColorSpec ofFrame(AVFrame frame, Matrix container, boolean containerFullRange) {
    int format = frame.format();
    boolean jpegFormat =
        format == AV_PIX_FMT_YUVJ420P
            || format == AV_PIX_FMT_YUVJ422P
            || format == AV_PIX_FMT_YUVJ444P;
    return resolve(
        fromAvColorSpace(frame.colorspace()),
        container,
        isFullRange(frame.color_range()) || jpegFormat || containerFullRange);
  }

  static boolean isFullRange(int avColorRange) {
    return avColorRange == AVCOL_RANGE_JPEG;
  }
}
