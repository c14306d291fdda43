package org.robostream.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Tiny videos (64x48, 10 frames at 10 fps, a keyframe every 5) in pixel formats beyond 8-bit 4:2:0,
 * encoded by the ffmpeg CLI into target/fixtures/pixfmt once per build, and the re-encoding of a
 * dataset's video into one of them (same frames, same timestamps).
 *
 * <p>Content: every sample value is drawn at 10-bit precision (geq on yuv444p10le, then converted),
 * so a 10-bit file's low bits carry detail an 8-bit path would drop. 4:2:0 files get chroma that is
 * flat within each frame and are coded so that it stays flat (H.264 High 10 at qp 1, HEVC Main 10
 * and AV1 Main losslessly): chroma upsampling, where swscale versions differ (the CLI is FFmpeg
 * 5.1, the library 8.1; a stream whose chroma varies differs by up to 3 of 255), then cannot change
 * a pixel, and the comparison with the CLI is exact.
 */
public final class PixelFormatVideos {
  private PixelFormatVideos() {}

  /** A test video: its file name, FFmpeg pixel format and encoder arguments. */
  public enum Kind {
    H264_YUV444P("h264", "yuv444p", "-c:v", "libx264", "-preset", "veryfast", "-crf", "10"),
    H264_YUV420P10LE("h264", "yuv420p10le", "-c:v", "libx264", "-preset", "veryfast", "-qp", "1"),
    HEVC_YUV420P10LE(
        "hevc",
        "yuv420p10le",
        "-c:v",
        "libx265",
        "-preset",
        "veryfast",
        "-x265-params",
        "log-level=error:lossless=1",
        "-tag:v",
        "hvc1"),
    HEVC_YUV444P10LE(
        "hevc",
        "yuv444p10le",
        "-c:v",
        "libx265",
        "-preset",
        "veryfast",
        "-crf",
        "10",
        "-x265-params",
        "log-level=error",
        "-tag:v",
        "hvc1"),
    AV1_YUV420P10LE(
        "av1", "yuv420p10le", "-c:v", "libaom-av1", "-cpu-used", "8", "-aom-params", "lossless=1"),
    AV1_YUV444P("av1", "yuv444p", "-c:v", "libaom-av1", "-cpu-used", "8", "-crf", "10"),
    AV1_YUV444P10LE("av1", "yuv444p10le", "-c:v", "libaom-av1", "-cpu-used", "8", "-crf", "10");

    private final String codec;
    private final String pixelFormat;
    private final List<String> encoder;

    Kind(String codec, String pixelFormat, String... encoder) {
      this.codec = codec;
      this.pixelFormat = pixelFormat;
      this.encoder = List.of(encoder);
    }

    public String codec() {
      return codec;
    }

    public String pixelFormat() {
      return pixelFormat;
    }

    public boolean deep() {
      return pixelFormat.contains("10");
    }

    boolean subsampled() {
      return pixelFormat.startsWith("yuv420");
    }

    public String fileName() {
      return codec + "_" + pixelFormat + ".mp4";
    }
  }

  /**
   * A depth video: lossless (FFV1, HEVC RExt 4:0:0, AV1 monochrome), so the decoded samples are the
   * drawn ones, spread over the format's whole range (a 12-bit file uses values up to 4000).
   */
  public enum DepthKind {
    FFV1_GRAY16LE("mkv", "gray16le", "1000+mod(X*97+Y*31+N*13\\,60000)", "-c:v", "ffv1"),
    FFV1_GRAY12LE("mkv", "gray12le", "100+mod(X*97+Y*31+N*13\\,3900)", "-c:v", "ffv1"),
    FFV1_YUV420P16LE(
        "mkv",
        "yuv420p16le",
        "1000+mod(X*97+Y*31+N*13\\,60000)':cb='32768':cr='32768",
        "-c:v",
        "ffv1"),
    HEVC_GRAY12LE(
        "mp4",
        "gray12le",
        "100+mod(X*97+Y*31+N*13\\,3900)",
        "-c:v",
        "libx265",
        "-x265-params",
        "log-level=error:lossless=1",
        "-tag:v",
        "hvc1"),
    AV1_GRAY(
        "mp4",
        "gray",
        "mod(X*7+Y*3+N\\,255)",
        "-c:v",
        "libaom-av1",
        "-cpu-used",
        "8",
        "-aom-params",
        "lossless=1");

    private final String container;
    private final String pixelFormat;
    private final String values;
    private final List<String> encoder;

    DepthKind(String container, String pixelFormat, String values, String... encoder) {
      this.container = container;
      this.pixelFormat = pixelFormat;
      this.values = values;
      this.encoder = List.of(encoder);
    }

    public String pixelFormat() {
      return pixelFormat;
    }

    public String fileName() {
      return "depth_" + name().toLowerCase(java.util.Locale.ROOT) + "." + container;
    }
  }

  /** The depth video of {@code kind}, made on first use. */
  public static synchronized Path video(DepthKind kind) {
    Path file = Fixtures.dir().resolve("pixfmt").resolve(kind.fileName());
    if (!Files.isRegularFile(file)) {
      write(
          file,
          source("format=" + kind.pixelFormat + ",geq=lum='" + kind.values + "'", kind.encoder));
    }
    return file;
  }

  /** A lossless FFV1 video of RGB (decoded as bgr0): colour that must not be read as depth. */
  public static synchronized Path rgbVideo() {
    Path file = Fixtures.dir().resolve("pixfmt").resolve("ffv1_gbrp.mkv");
    if (!Files.isRegularFile(file)) {
      write(file, source("format=gbrp", List.of("-c:v", "ffv1")));
    }
    return file;
  }

  public static final int WIDTH = 64;
  public static final int HEIGHT = 48;
  public static final int FRAMES = 10;

  /** The video of {@code kind}, made on first use. */
  public static synchronized Path video(Kind kind) {
    Path file = Fixtures.dir().resolve("pixfmt").resolve(kind.fileName());
    if (Files.isRegularFile(file)) {
      return file;
    }
    write(
        file,
        source(
            "format=yuv444p10le,geq=lum='"
                + LUMA
                + "':"
                + chroma(kind)
                + ",format="
                + kind.pixelFormat,
            kind.encoder));
    return file;
  }

  /** The ffmpeg command drawing 10 frames through {@code filter}, encoded by {@code encoder}. */
  private static List<String> source(String filter, List<String> encoder) {
    List<String> command = new ArrayList<>(ffmpeg());
    command.addAll(
        List.of(
            "-f",
            "lavfi",
            "-i",
            "color=c=gray:s=" + WIDTH + "x" + HEIGHT + ":r=10:d=1",
            "-vf",
            filter,
            "-g",
            "5"));
    command.addAll(encoder);
    return command;
  }

  /**
   * Re-encodes {@code source} (a dataset's video) into {@code kind}'s codec and pixel format in
   * place: the same frames at the same timestamps, each a keyframe-bounded GOP of 5.
   */
  public static void reencode(Path source, Kind kind) {
    reencode(source, kind.pixelFormat, kind.encoder);
  }

  /** Like {@link #reencode(Path, Kind)}: the frames' luma becomes the depth values. */
  public static void reencode(Path source, DepthKind kind) {
    reencode(source, kind.pixelFormat, kind.encoder);
  }

  private static void reencode(Path source, String pixelFormat, List<String> encoder) {
    List<String> command = new ArrayList<>(ffmpeg());
    command.addAll(
        List.of(
            "-i",
            source.toString(),
            "-fps_mode",
            "passthrough",
            "-pix_fmt",
            pixelFormat,
            "-g",
            "5"));
    command.addAll(encoder);
    write(source, command);
  }

  // 10-bit detail everywhere: a gradient plus a fast-changing term that fills the low two bits.
  private static final String LUMA = "64+mod(X*13+Y*7+N*29\\,896)";

  private static String chroma(Kind kind) {
    if (kind.subsampled()) {
      return "cb='300+N*37':cr='700-N*23'"; // flat within a frame (see the class comment)
    }
    return "cb='512+300*sin(X/5+N)':cr='512+300*cos(Y/4-N)'";
  }

  private static List<String> ffmpeg() {
    return List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y");
  }

  /** Runs {@code command} into a temporary file beside {@code target}, then moves it there. */
  private static void write(Path target, List<String> command) {
    try {
      Files.createDirectories(target.getParent());
      String name = target.getFileName().toString();
      Path tmp = target.resolveSibling(name + ".tmp" + name.substring(name.lastIndexOf('.')));
      List<String> full = new ArrayList<>(command);
      full.add(tmp.toString());
      FfmpegReference.exec(full.toArray(String[]::new));
      Files.move(tmp, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write " + target, e);
    }
  }
}
