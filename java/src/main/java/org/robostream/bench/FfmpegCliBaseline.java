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

  /** Wall-clock seconds of one full decode+convert of {@code file} by the ffmpeg CLI. */
  public static double decodeSeconds(Path file, int threads) throws IOException {
    return run(file, threads, List.of());
  }

  /**
   * Wall-clock seconds of the same command stopped after the first frame: process start-up,
   * opening and probing the file and one frame. Subtracted from {@link #decodeSeconds} it leaves
   * the cost of the other frames, comparable with an in-process decoder whose start-up is not
   * timed.
   */
  public static double fixedSeconds(Path file, int threads) throws IOException {
    return run(file, threads, List.of("-frames:v", "1"));
  }

  private static double run(Path file, int threads, List<String> outputOptions)
      throws IOException {
    List<String> command = new java.util.ArrayList<>(List.of("ffmpeg", "-hide_banner",
        "-loglevel", "error", "-nostdin", "-threads", Integer.toString(threads), "-i",
        file.toString(), "-pix_fmt", "rgb24"));
    command.addAll(outputOptions);
    command.addAll(List.of("-f", "null", "-"));
    long start = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    try {
      int rc = process.waitFor();
      if (rc != 0) {
        throw new IOException("ffmpeg failed on " + file + " (exit " + rc + "): "
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
