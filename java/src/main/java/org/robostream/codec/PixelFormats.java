package org.robostream.codec;

import org.bytedeco.ffmpeg.avutil.AVPixFmtDescriptor;
import org.bytedeco.ffmpeg.global.avutil;

/**
 * Facts about FFmpeg pixel formats that decide how a picture becomes floats: sources deeper than 8
 * bits are converted to float32 from their full-precision samples, 8-bit ones from their uint8 RGB.
 * Thread-safe (stateless).
 */
public final class PixelFormats {
  private PixelFormats() {}

  /** Bits per sample of the first (luma) component; 8 for an unknown format. */
  public static int bitsPerSample(int pixelFormat) {
    AVPixFmtDescriptor d = pixelFormat < 0 ? null : avutil.av_pix_fmt_desc_get(pixelFormat);
    return d == null || d.isNull() ? 8 : d.comp(0).depth();
  }

  /** Whether samples carry more than 8 bits (10-bit, 12-bit, 16-bit formats). */
  public static boolean isDeep(int pixelFormat) {
    return bitsPerSample(pixelFormat) > 8;
  }

  /** {@link #isDeep(int)} for a format given by FFmpeg's name ("yuv420p10le"); false if unknown. */
  public static boolean isDeep(String pixelFormatName) {
    return isDeep(avutil.av_get_pix_fmt(pixelFormatName));
  }
}
