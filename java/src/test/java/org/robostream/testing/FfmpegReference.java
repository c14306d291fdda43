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
    return exec(allFramesRgbCommand(file, "-"));
  }

  /** As {@link #allFramesRgb}, written to the file {@code out} (frames too many for the heap). */
  public static void allFramesRgbTo(Path file, Path out) {
    exec(allFramesRgbCommand(file, out.toString()));
  }

  private static String[] allFramesRgbCommand(Path file, String out) {
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
      "rgb24",
      out
    };
  }

  /**
   * Every frame as RGB24 (HWC) with the YUV matrix and range forced ("bt601", "bt709"; "tv" or
   * "pc") instead of the stream's tags: what a converter ignoring the tags would produce.
   */
  public static byte[] allFramesRgbReadAs(Path file, String matrix, String range) {
    return exec(
        "ffmpeg",
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostdin",
        "-i",
        file.toString(),
        "-vf",
        "scale=in_color_matrix=" + matrix + ":in_range=" + range + ",format=rgb24",
        "-fps_mode",
        "passthrough",
        "-f",
        "rawvideo",
        "-");
  }

  /**
   * The frames around every multiple m of {@code step} (m-1, m and m+1, those that exist) as RGB24
   * (HWC), in frame order; {@link #isAroundAMultiple} says which indices these are.
   */
  public static byte[] framesAroundEveryNthRgb(Path file, int step) {
    return exec(
        "ffmpeg",
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostdin",
        "-i",
        file.toString(),
        "-vf",
        "select=lt(mod(n+1\\," + step + ")\\,3)",
        "-fps_mode",
        "passthrough",
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
}
