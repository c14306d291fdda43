package org.robostream.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The ffmpeg CLI as the CPU speed reference: {@code ffmpeg -threads N -i F -pix_fmt rgb24 -f null
 * -} decodes and converts every frame of a file. Thread-safe (stateless).
 */
public final class FfmpegCliBaseline {
  private FfmpegCliBaseline() {}

  /**
   * Why the ffmpeg CLI cannot be run (not on PATH, or failing), or null when it can: checked before
   * a benchmark so that a missing baseline is known before the measurement, not after.
   */
  public static String unavailableCause() {
    try {
      Process p =
          new ProcessBuilder("ffmpeg", "-hide_banner", "-version")
              .redirectErrorStream(true)
              .start();
      p.getInputStream().readAllBytes();
      int rc = p.waitFor();
      return rc == 0 ? null : "ffmpeg -version exited with " + rc;
    } catch (IOException e) {
      return "the ffmpeg CLI is not on PATH (" + e.getMessage() + "); install ffmpeg";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while checking the ffmpeg CLI";
    }
  }

  /** Wall-clock seconds of one full decode+convert of {@code file} by the ffmpeg CLI. */
  public static double decodeSeconds(Path file, int threads) throws IOException {
    return run(file, threads, List.of());
  }

  /**
   * Wall-clock seconds of the same command stopped after the first frame: process start-up, opening
   * and probing the file and one frame. Subtracted from {@link #decodeSeconds} it leaves the cost
   * of the other frames, comparable with an in-process decoder whose start-up is not timed.
   */
  public static double fixedSeconds(Path file, int threads) throws IOException {
    return run(file, threads, List.of("-frames:v", "1"));
  }

  private static double run(Path file, int threads, List<String> outputOptions) throws IOException {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                "ffmpeg",
                "-hide_banner",
                "-loglevel",
                "error",
                "-nostdin",
                "-threads",
                Integer.toString(threads),
                "-i",
                file.toString(),
                "-pix_fmt",
                "rgb24"));
    command.addAll(outputOptions);
    command.addAll(List.of("-f", "null", "-"));
    long start = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    try {
      int rc = process.waitFor();
      if (rc != 0) {
        throw new IOException(
            "ffmpeg failed on "
                + file
                + " (exit "
                + rc
                + "): "
                + new String(output, java.nio.charset.StandardCharsets.UTF_8).strip());
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while timing ffmpeg", e);
    }
    return (System.nanoTime() - start) / 1e9;
  }
}
