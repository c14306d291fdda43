package org.robostream.dataset.synth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes RGB24 frames into an MP4 through the ffmpeg CLI (frames go to its stdin), concatenates
 * MP4 pieces without re-encoding, as LeRobot's writer does for v3.0 files, and measures a video's
 * duration with ffprobe. Errors carry the tool's own message. Stateless.
 */
final class FfmpegVideoWriter {
  private FfmpegVideoWriter() {}

  /** Produces one frame: fills {@code frame} (the camera's raw input, HWC) with frame number n. */
  interface FramePainter {
    void paint(byte[] frame, int n);
  }

  /**
   * Encodes {@code frames} frames of {@code camera} (its size, codec and stored pixel format) into
   * {@code out}; the painter fills each raw input frame ({@link SyntheticCamera#inputPixelFormat}).
   */
  static void encode(
      Path out, SyntheticCamera camera, int fps, int frames, int gop, int crf, FramePainter painter)
      throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "ffmpeg",
                "-hide_banner",
                "-v",
                "error",
                "-y",
                "-f",
                "rawvideo",
                "-pix_fmt",
                camera.inputPixelFormat(),
                "-s",
                camera.size().toString(),
                "-r",
                String.valueOf(fps),
                "-i",
                "pipe:0"));
    command.addAll(camera.codec().ffmpegArguments(gop, crf, camera.pixelFormat()));
    command.add(out.toString());
    Path log = Files.createTempFile("robostream-ffmpeg", ".log");
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectError(log.toFile())
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      byte[] frame = new byte[camera.inputFrameBytes()];
      try (OutputStream stdin = p.getOutputStream()) {
        for (int f = 0; f < frames; f++) {
          painter.paint(frame, f);
          stdin.write(frame);
        }
      } catch (IOException e) {
        // ffmpeg exited early; its log says why.
      }
      finish(p, log, "encoding " + out);
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /** Concatenates {@code pieces} (same codec and size) into {@code out}, moov at the front. */
  static void concatenate(List<Path> pieces, Path out) throws IOException {
    Path list = Files.createTempFile("robostream-concat", ".txt");
    Path log = Files.createTempFile("robostream-ffmpeg", ".log");
    try {
      StringBuilder text = new StringBuilder();
      for (Path piece : pieces) {
        text.append("file '")
            .append(piece.toAbsolutePath().toString().replace("'", "'\\''"))
            .append("'\n");
      }
      Files.writeString(list, text);
      Process p =
          new ProcessBuilder(
                  "ffmpeg",
                  "-nostdin",
                  "-hide_banner",
                  "-v",
                  "error",
                  "-y",
                  "-f",
                  "concat",
                  "-safe",
                  "0",
                  "-i",
                  list.toString(),
                  "-c",
                  "copy",
                  "-movflags",
                  "+faststart",
                  out.toString())
              .redirectError(log.toFile())
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      finish(p, log, "concatenating into " + out);
    } finally {
      Files.deleteIfExists(list);
      Files.deleteIfExists(log);
    }
  }

  /**
   * The duration of {@code video}'s first video stream from its packets as ffprobe lists them: the
   * last presented frame's pts plus its duration minus the first frame's pts (without a stored
   * duration, the gap before the last frame), in the stream's time base. Packets flagged discard
   * are not presented. An independent measurement: the metadata of a test dataset must not come
   * from the decoder the tests check.
   */
  static double durationSeconds(Path video) throws IOException {
    JsonNode probe = probe(video, "stream=time_base:packet=pts,duration,flags");
    String[] timeBase = probe.path("streams").path(0).path("time_base").asText("").split("/");
    if (timeBase.length != 2) {
      throw new IOException("ffprobe reported no time base for " + video);
    }
    double tick = Long.parseLong(timeBase[0]) / (double) Long.parseLong(timeBase[1]);
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    long before = Long.MIN_VALUE;
    long lastDuration = 0;
    for (JsonNode packet : probe.path("packets")) {
      if (packet.path("flags").asText().indexOf('D') >= 0 || !packet.has("pts")) {
        continue;
      }
      long pts = packet.path("pts").asLong();
      first = Math.min(first, pts);
      if (pts >= last) {
        before = pts > last ? last : before;
        last = pts;
        lastDuration = Math.max(0, packet.path("duration").asLong(0));
      } else {
        before = Math.max(before, pts);
      }
    }
    if (last == Long.MIN_VALUE) {
      throw new IOException("ffprobe listed no frames in " + video);
    }
    double shown =
        lastDuration > 0
            ? lastDuration * tick
            : before != Long.MIN_VALUE ? last * tick - before * tick : 0.0;
    return last * tick - first * tick + shown;
  }

  /**
   * ffprobe's JSON for {@code video}'s first video stream: the given {@code -show_entries} (e.g.
   * {@code stream=width,height}).
   */
  static JsonNode probe(Path video, String entries) throws IOException {
    Path json = Files.createTempFile("robostream-ffprobe", ".json");
    Path log = Files.createTempFile("robostream-ffprobe", ".log");
    try {
      Process p =
          new ProcessBuilder(
                  "ffprobe",
                  "-v",
                  "error",
                  "-select_streams",
                  "v:0",
                  "-show_entries",
                  entries,
                  "-of",
                  "json",
                  video.toString())
              .redirectError(log.toFile())
              .redirectOutput(json.toFile())
              .start();
      finish(p, log, "probing " + video);
      return new ObjectMapper().readTree(json.toFile());
    } finally {
      Files.deleteIfExists(json);
      Files.deleteIfExists(log);
    }
  }

  private static void finish(Process p, Path log, String what) throws IOException {
    int rc;
    try {
      rc = p.waitFor();
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException(what + " was interrupted", e);
    }
    if (rc != 0) {
      throw new IOException(
          "ffmpeg failed (exit " + rc + ") " + what + ": " + Files.readString(log).strip());
    }
  }
}
