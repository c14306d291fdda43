package org.robostream.dataset.synth;

import java.util.Locale;

/**
 * The pixel formats make-dataset's colour cameras can be encoded in ({@code video.pix_fmt} in
 * info.json says which). LeRobot's recorder writes yuv420p; yuv444p and 10-bit video come from
 * other writers. Immutable.
 */
public enum PixelFormatChoice {
  YUV420P("yuv420p"),
  YUV444P("yuv444p"),
  YUV420P10LE("yuv420p10le");

  private final String ffmpegName;

  PixelFormatChoice(String ffmpegName) {
    this.ffmpegName = ffmpegName;
  }

  /** FFmpeg's name of the format (the encoder's {@code -pix_fmt}, ffprobe's {@code pix_fmt}). */
  public String ffmpegName() {
    return ffmpegName;
  }

  public static PixelFormatChoice parse(String name) {
    for (PixelFormatChoice f : values()) {
      if (f.ffmpegName.equals(name.toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        "unknown pixel format " + name + " (yuv420p, yuv444p or yuv420p10le)");
  }
}
