package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.robostream.testing.Ffprobe;
import org.robostream.testing.Fixtures;

/**
 * {@code robostream probe} (read from the container, nothing decoded) reports what ffprobe finds
 * for every video fixture: codec, size, pixel format, time base, frame rate, frame count, first and
 * last pts, duration and the keyframe positions.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.robostream.testing.NativeLeakCheck.class)
class ProbeMatchesFfprobeTest {
  static Stream<String> everyFixture() throws IOException {
    try (Stream<Path> files = Files.list(Fixtures.dir())) {
      List<String> names =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> (n.endsWith(".mp4") || n.endsWith(".webm")) && !n.contains(".tmp."))
              .sorted()
              .toList();
      assertTrue(names.size() >= 17, "fixtures: " + names);
      return names.stream();
    }
  }

  @ParameterizedTest
  @MethodSource("everyFixture")
  void probeMatchesFfprobe(String name) throws Exception {
    Path file = Fixtures.video(name);
    JsonNode probe = probe(file);
    Ffprobe.Stream stream = Ffprobe.stream(file);
    List<Ffprobe.Frame> frames = Ffprobe.frames(file);
    Ffprobe.Frame first = frames.get(0);
    Ffprobe.Frame last = frames.get(frames.size() - 1);

    assertEquals(stream.codec(), probe.path("codec").asText());
    assertEquals(stream.width(), probe.path("width").asInt());
    assertEquals(stream.height(), probe.path("height").asInt());
    assertEquals(stream.timeBaseNumerator(), probe.path("timeBaseNumerator").asInt());
    assertEquals(stream.timeBaseDenominator(), probe.path("timeBaseDenominator").asInt());
    assertEquals(
        Ffprobe.rational(stream.averageFrameRate()),
        probe.path("averageFps").asDouble(),
        1e-9,
        "average fps");
    assertEquals(frames.size(), probe.path("frameCount").asInt(), "frames ffprobe decodes");
    if (stream.declaredFrames() >= 0) {
      assertEquals(stream.declaredFrames(), probe.path("frameCount").asInt(), "nb_frames");
    }
    double tick = stream.timeBaseNumerator() / (double) stream.timeBaseDenominator();
    assertEquals(first.ptsSeconds(), probe.path("firstPtsSeconds").asDouble(), tick, "first pts");
    assertEquals(last.ptsSeconds(), probe.path("lastPtsSeconds").asDouble(), tick, "last pts");
    assertEquals(
        last.ptsSeconds() + last.durationSeconds() - first.ptsSeconds(),
        probe.path("durationSeconds").asDouble(),
        tick,
        "duration: last pts + its duration");
    assertArrayEquals(
        keyframes(file), doubles(probe.path("keyframeTimestamps")), tick, "keyframe pts");
    assertPixelFormat(stream, probe);
  }

  /** LeRobot's AV1 layout: every other frame is a keyframe, in the container and as decoded. */
  @Test
  void av1FixturesHaveAKeyframeEveryTwoFrames() throws Exception {
    for (String name : List.of("av1_g2.mp4", "camera_av1_640x480.mp4")) {
      Path file = Fixtures.video(name);
      List<Ffprobe.Frame> frames = Ffprobe.frames(file);
      for (int f = 0; f < frames.size(); f++) {
        assertEquals(f % 2 == 0, frames.get(f).key(), name + " frame " + f + " key flag");
      }
      double[] everyOther =
          frames.stream()
              .filter(Ffprobe.Frame::key)
              .mapToDouble(Ffprobe.Frame::ptsSeconds)
              .toArray();
      assertEquals(frames.size() / 2, everyOther.length);
      assertArrayEquals(everyOther, doubles(probe(file).path("keyframeTimestamps")), 1e-6, name);
    }
  }

  /** Where the container flags sync samples: ffprobe's packets with the K flag. */
  private static double[] keyframes(Path file) {
    return Ffprobe.packets(file).stream()
        .filter(Ffprobe.Packet::key)
        .mapToDouble(Ffprobe.Packet::ptsSeconds)
        .sorted()
        .toArray();
  }

  /**
   * ffprobe's deprecated "j" formats (yuvj420p) are the plain format with full range, which probe
   * reports as the range. VP9 in WebM declares no pixel format in the container (ffprobe decodes a
   * frame to learn it), so probe says "unknown" there, as VideoStreamInfo documents.
   */
  private static void assertPixelFormat(Ffprobe.Stream stream, JsonNode probe) {
    String reported = probe.path("pixelFormat").asText();
    if (stream.codec().equals("vp9")) {
      assertEquals("unknown", reported);
      return;
    }
    String expected = stream.pixelFormat();
    if (expected.startsWith("yuvj")) {
      expected = "yuv" + expected.substring(4);
      assertEquals("pc", probe.path("colorRange").asText(), "range of " + stream.pixelFormat());
    }
    assertEquals(expected, reported, "pixel format");
  }

  private static JsonNode probe(Path file) throws IOException {
    String out = CliTest.capture(() -> assertEquals(0, Main.run("probe", file.toString())));
    return Json.MAPPER.readTree(out);
  }

  private static double[] doubles(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false)
        .mapToDouble(JsonNode::asDouble)
        .toArray();
  }
}
