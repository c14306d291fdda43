package org.robostream.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reference frames and timestamps from the ffmpeg/ffprobe CLI, the ground truth of the tests. */
public final class FfmpegReference {
  private FfmpegReference() {}

  /** pts (seconds) of every decoded frame, in presentation order, as ffprobe reports them. */
  public static double[] framePts(Path file) {
    String out =
        new String(
            exec(
                "ffprobe",
                "-v",
                "error",
                "-select_streams",
                "v:0",
                "-show_entries",
                "frame=best_effort_timestamp_time",
                "-of",
                "csv=p=0",
                file.toString()),
            StandardCharsets.UTF_8);
    List<Double> pts = new ArrayList<>();
    for (String line : out.split("\n")) {
      String t = line.strip().replace(",", "");
      if (!t.isEmpty() && !t.equals("N/A")) {
        pts.add(Double.parseDouble(t));
      }
    }
    return pts.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** Every frame as RGB24 (HWC), decoded by the ffmpeg CLI; frame i at offset i*w*h*3. */
  public static byte[] allFramesRgb(Path file) {
    return allFramesRaw(file, "rgb24");
  }

  /** Every frame converted by the ffmpeg CLI to raw {@code pixelFormat}, back to back. */
  public static byte[] allFramesRaw(Path file, String pixelFormat) {
    return exec(rawFramesCommand(file, pixelFormat, "-"));
  }

  /** As {@link #allFramesRgb}, written to the file {@code out} (frames too many for the heap). */
  public static void allFramesRgbTo(Path file, Path out) {
    exec(rawFramesCommand(file, "rgb24", out.toString()));
  }

  private static String[] rawFramesCommand(Path file, String pixelFormat, String out) {
    return new String[] {
      "ffmpeg",
      "-hide_banner",
      "-loglevel",
      "error",
      "-nostdin",
      "-y",
      "-i",
      file.toString(),
      "-fps_mode",
      "passthrough",
      "-f",
      "rawvideo",
      "-pix_fmt",
      pixelFormat,
      out
    };
  }

  /**
   * Every frame as uint8 R, G, B planes (CHW), from the ffmpeg CLI's planar {@code gbrp} output:
   * what a planar converter should match (swscale's planar path rounds differently from its packed
   * one for sources deeper than 8 bits); frame i at offset i*3*w*h.
   */
  public static byte[] allFramesPlanarRgb(Path file, int width, int height) {
    byte[] gbr = allFramesRaw(file, "gbrp");
    byte[] rgb = new byte[gbr.length];
    int plane = width * height;
    for (int base = 0; base + 3 * plane <= gbr.length; base += 3 * plane) {
      System.arraycopy(gbr, base + 2 * plane, rgb, base, plane); // R
      System.arraycopy(gbr, base, rgb, base + plane, plane); // G
      System.arraycopy(gbr, base + plane, rgb, base + 2 * plane, plane); // B
    }
    return rgb;
  }

  /**
   * Every frame as float32 RGB in [0, 1] as the ffmpeg CLI converts it ({@code gbrpf32le}, from the
   * picture's own samples), reordered to R, G, B planes (CHW); frame i at value offset i*3*w*h.
   */
  public static float[] allFramesUnitFloats(Path file, int width, int height) {
    byte[] raw = allFramesRaw(file, "gbrpf32le");
    java.nio.FloatBuffer gbr =
        java.nio.ByteBuffer.wrap(raw).order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
    float[] rgb = new float[gbr.remaining()];
    int plane = width * height;
    for (int frame = 0; frame < rgb.length / (3 * plane); frame++) {
      int base = frame * 3 * plane;
      gbr.get(base + 2 * plane, rgb, base, plane); // R
      gbr.get(base, rgb, base + plane, plane); // G
      gbr.get(base + plane, rgb, base + 2 * plane, plane); // B
    }
    return rgb;
  }

  /**
   * Every frame as RGB24 (HWC) with the YUV matrix and range forced ("bt601", "bt709"; "tv" or
   * "pc") instead of the stream's tags: what a converter ignoring the tags would produce.
   */
  public static byte[] allFramesRgbReadAs(Path file, String matrix, String range) {
    return rawThroughFilter(
        file, "scale=in_color_matrix=" + matrix + ":in_range=" + range + ",format=rgb24");
  }

  /**
   * The frames around every multiple m of {@code step} (m-1, m and m+1, those that exist) as RGB24
   * (HWC), in frame order; {@link #isAroundAMultiple} says which indices these are.
   */
  public static byte[] framesAroundEveryNthRgb(Path file, int step) {
    return rawThroughFilter(file, "select=lt(mod(n+1\\," + step + ")\\,3)", "-pix_fmt", "rgb24");
  }

  /** The ffmpeg CLI's RGB24 (HWC) decode of one image file (PNG, JPEG). */
  public static byte[] imageRgb(Path image) {
    return exec(
        "ffmpeg",
        "-v",
        "error",
        "-i",
        image.toString(),
        "-f",
        "rawvideo",
        "-pix_fmt",
        "rgb24",
        "-");
  }

  /** Whether frame {@code n} is one {@link #framesAroundEveryNthRgb} returns. */
  public static boolean isAroundAMultiple(int n, int step) {
    return (n + 1) % step < 3;
  }

  static byte[] exec(String... command) {
    try {
      Process p =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (p.waitFor() != 0) {
        throw new IllegalStateException("failed: " + String.join(" ", command));
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Every frame scaled to {@code width} x {@code height} by ffmpeg's scale filter with swscale
   * {@code flags} (e.g. "bilinear") and converted to RGB24 (HWC) in the same swscale context.
   */
  public static byte[] allFramesRgbScaled(Path file, int width, int height, String flags) {
    return scaled(file, width, height, flags, "rgb24");
  }

  /**
   * Like {@link #allFramesRgbScaled}, converted to planar GBR in the scale filter's swscale context
   * (the output a CHW converter writing GBR planes gets), returned as RGB24 (HWC).
   */
  public static byte[] allFramesGbrpScaledAsRgb(Path file, int width, int height, String flags) {
    byte[] planar = scaled(file, width, height, flags, "gbrp");
    byte[] rgb = new byte[planar.length];
    int plane = width * height;
    for (int frame = 0; frame < planar.length / (3 * plane); frame++) {
      int base = frame * 3 * plane;
      for (int i = 0; i < plane; i++) {
        rgb[base + 3 * i] = planar[base + 2 * plane + i]; // R is the third plane
        rgb[base + 3 * i + 1] = planar[base + i];
        rgb[base + 3 * i + 2] = planar[base + plane + i];
      }
    }
    return rgb;
  }

  private static byte[] scaled(Path file, int width, int height, String flags, String format) {
    return rawThroughFilter(
        file, "scale=" + width + ":" + height + ":flags=" + flags + ",format=" + format);
  }

  /** Every frame of {@code file} through the video filter {@code filter}, as raw video. */
  private static byte[] rawThroughFilter(Path file, String filter, String... outputOptions) {
    List<String> command =
        new ArrayList<>(
            List.of(
                "ffmpeg",
                "-hide_banner",
                "-loglevel",
                "error",
                "-nostdin",
                "-i",
                file.toString(),
                "-vf",
                filter,
                "-fps_mode",
                "passthrough",
                "-f",
                "rawvideo"));
    command.addAll(List.of(outputOptions));
    command.add("-");
    return exec(command.toArray(String[]::new));
  }
}
