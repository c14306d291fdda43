package org.robostream.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the ffprobe CLI reports about a file's first video stream (JSON output): the reference for
 * the container-level facts robostream reads without decoding.
 */
public final class Ffprobe {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Ffprobe() {}

  /**
   * The stream's declared properties.
   *
   * @param frameRate r_frame_rate as "num/den"; averageFrameRate avg_frame_rate likewise
   * @param declaredFrames nb_frames, or -1 where the container does not say (WebM)
   * @param durationSeconds the stream's duration, NaN where absent
   */
  public record Stream(
      String codec,
      int width,
      int height,
      String pixelFormat,
      int timeBaseNumerator,
      int timeBaseDenominator,
      String frameRate,
      String averageFrameRate,
      long declaredFrames,
      double durationSeconds,
      String colorSpace,
      String colorRange,
      String colorPrimaries,
      String colorTransfer) {}

  /** One packet in decode order; {@code position} is its byte offset in the file (-1: unknown). */
  public record Packet(
      long position, int size, double ptsSeconds, double dtsSeconds, boolean key) {}

  /** One decoded frame in presentation order; its duration as its packet declares (NaN: none). */
  public record Frame(double ptsSeconds, double durationSeconds, boolean key, String pictureType) {}

  public static Stream stream(Path file) {
    JsonNode s = run(file, "-show_streams").path("streams").path(0);
    String[] timeBase = s.path("time_base").asText("0/1").split("/");
    return new Stream(
        s.path("codec_name").asText(),
        s.path("width").asInt(),
        s.path("height").asInt(),
        s.path("pix_fmt").asText("unknown"),
        Integer.parseInt(timeBase[0]),
        Integer.parseInt(timeBase[1]),
        s.path("r_frame_rate").asText(),
        s.path("avg_frame_rate").asText(),
        s.has("nb_frames") ? s.path("nb_frames").asLong() : -1,
        number(s.path("duration")),
        s.path("color_space").asText("unknown"),
        s.path("color_range").asText("unknown"),
        s.path("color_primaries").asText("unknown"),
        s.path("color_transfer").asText("unknown"));
  }

  public static List<Packet> packets(Path file) {
    List<Packet> out = new ArrayList<>();
    for (JsonNode p : run(file, "-show_packets").path("packets")) {
      out.add(
          new Packet(
              p.path("pos").asLong(-1),
              p.path("size").asInt(),
              number(p.path("pts_time")),
              number(p.path("dts_time")),
              p.path("flags").asText().contains("K")));
    }
    return out;
  }

  /** Decodes the whole stream (slow for long files). */
  public static List<Frame> frames(Path file) {
    List<Frame> out = new ArrayList<>();
    for (JsonNode f : run(file, "-show_frames").path("frames")) {
      // FFmpeg 5.1 names it pkt_duration_time; later versions duration_time.
      JsonNode duration =
          f.has("duration_time") ? f.path("duration_time") : f.path("pkt_duration_time");
      out.add(
          new Frame(
              number(f.path("best_effort_timestamp_time")),
              number(duration),
              f.path("key_frame").asInt() == 1,
              f.path("pict_type").asText()));
    }
    return out;
  }

  /** Converts "num/den" as ffprobe writes rates. */
  public static double rational(String value) {
    String[] parts = value.split("/");
    double den = parts.length > 1 ? Double.parseDouble(parts[1]) : 1;
    return den == 0 ? 0 : Double.parseDouble(parts[0]) / den;
  }

  private static double number(JsonNode node) {
    return node.isMissingNode() || node.asText().equals("N/A")
        ? Double.NaN
        : Double.parseDouble(node.asText());
  }

  private static JsonNode run(Path file, String section) {
    byte[] out =
        FfmpegReference.exec(
            "ffprobe",
            "-v",
            "error",
            "-select_streams",
            "v:0",
            section,
            "-of",
            "json",
            file.toString());
    try {
      return JSON.readTree(out);
    } catch (IOException e) {
      throw new UncheckedIOException("ffprobe " + section + " " + file + " gave no JSON", e);
    }
  }
}
