package org.robostream.dataset.synth;

import java.util.List;

/**
 * The encoders make-dataset can use, with LeRobot's settings where LeRobot has them (AV1:
 * libsvtav1, crf 30, preset 12, yuv420p). Immutable.
 */
public enum VideoCodecChoice {
  AV1("av1", 64),
  H264("h264", 2),
  HEVC("hevc", 16);

  private final String canonicalName;
  private final int minSize;

  VideoCodecChoice(String canonicalName, int minSize) {
    this.canonicalName = canonicalName;
    this.minSize = minSize;
  }

  /** The stream's codec name as FFmpeg reports it (info.json's {@code video.codec}). */
  public String canonicalName() {
    return canonicalName;
  }

  /** Smallest width and height the encoder accepts (SVT-AV1 refuses below 64). */
  public int minSize() {
    return minSize;
  }

  public static VideoCodecChoice parse(String name) {
    for (VideoCodecChoice c : values()) {
      if (c.canonicalName.equalsIgnoreCase(name) || c.name().equalsIgnoreCase(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown codec " + name + " (av1, h264 or hevc)");
  }

  /**
   * ffmpeg output options for keyframe interval {@code gop}, quality {@code crf} and stored pixel
   * format {@code pixelFormat} (FFmpeg's name; the encoder must support it).
   */
  List<String> ffmpegArguments(int gop, int crf, String pixelFormat) {
    return switch (this) {
      case AV1 ->
          List.of(
              "-c:v",
              "libsvtav1",
              "-preset",
              "12",
              "-crf",
              String.valueOf(crf),
              "-g",
              String.valueOf(gop),
              "-pix_fmt",
              pixelFormat,
              "-svtav1-params",
              "lp=2");
      case H264 ->
          List.of(
              "-c:v",
              "libx264",
              "-preset",
              "veryfast",
              "-crf",
              String.valueOf(crf),
              "-g",
              String.valueOf(gop),
              "-keyint_min",
              String.valueOf(gop),
              "-pix_fmt",
              pixelFormat);
      case HEVC ->
          List.of(
              "-c:v",
              "libx265",
              "-preset",
              "veryfast",
              "-crf",
              String.valueOf(crf),
              "-x265-params",
              "log-level=error:keyint=" + gop + ":min-keyint=" + gop,
              "-pix_fmt",
              pixelFormat,
              "-tag:v",
              "hvc1");
    };
  }

  /** LeRobot's crf for AV1; comparable visual quality for the others. */
  int defaultCrf() {
    return this == AV1 ? 30 : this == H264 ? 23 : 28;
  }
}
