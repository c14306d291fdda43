package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.testing.FrameCompare;

@org.junit.jupiter.api.extension.ExtendWith(org.robostream.testing.NativeLeakCheck.class)
class CliTest {
  @TempDir Path tmp;

  static String capture(Runnable r) {
    PrintStream old = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      r.run();
    } finally {
      System.setOut(old);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }

  @Test
  void probePrintsStreamInfo() throws Exception {
    Path file = Fixtures.video("h264_g30.mp4");
    String out = capture(() -> assertEquals(0, Main.run("probe", file.toString())));
    JsonNode json = Json.MAPPER.readTree(out);
    assertEquals("h264", json.get("codec").asText());
    assertEquals(160, json.get("width").asInt());
    assertEquals(300, json.get("frameCount").asInt());
    assertEquals(10, json.get("keyframeTimestamps").size());
    assertEquals(15360, json.get("timeBaseDenominator").asInt());
  }

  @Test
  void framesWritesRawRgbAndMetadata() throws Exception {
    Path file = Fixtures.video("hevc_g30.mp4");
    Path out = tmp.resolve("frames");
    capture(
        () ->
            assertEquals(
                0,
                Main.run(
                    "frames",
                    file.toString(),
                    "--at",
                    "2.0,0.5,2.0",
                    "--layout",
                    "chw",
                    "--out",
                    out.toString())));
    JsonNode frames = Json.MAPPER.readTree(out.resolve("frames.json").toFile());
    assertEquals(3, frames.size());
    assertEquals(0.5, frames.get(1).get("pts").asDouble(), 1e-9);
    assertEquals(15, frames.get(1).get("frame_index").asInt());
    assertEquals("chw", frames.get(0).get("layout").asText());
    byte[] chw = Files.readAllBytes(out.resolve("1.rgb"));
    assertEquals(160 * 120 * 3, chw.length);
    byte[] ref = FfmpegReference.allFramesRgb(file);
    double diff =
        FrameCompare.meanAbsDiff(FrameCompare.chwToHwc(chw, 120, 160), ref, 15 * 160 * 120 * 3);
    assertTrue(diff < 1.5, "diff " + diff);
  }

  @Test
  void badInputExitsNonZeroWithTheFileNamed() {
    PrintStream oldErr = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      int rc = Main.run("probe", tmp.resolve("missing.mp4").toString());
      assertEquals(1, rc);
    } finally {
      System.setErr(oldErr);
    }
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("missing.mp4"));
  }

  @Test
  void decodeBenchReportsBothRatesAndTheRatio() throws Exception {
    Path json = tmp.resolve("bench.json");
    capture(
        () ->
            assertEquals(
                0,
                Main.run(
                    "decode-bench",
                    "--repeat",
                    "1",
                    "--random",
                    "20",
                    "--json",
                    json.toString(),
                    Fixtures.video("av1_g2.mp4").toString())));
    JsonNode r = Json.MAPPER.readTree(json.toFile()).get("results").get(0);
    assertTrue(r.get("ffmpeg_fps").asDouble() > 0);
    assertTrue(r.get("robostream_fps").asDouble() > 0);
    assertEquals(
        r.get("ffmpeg_fps").asDouble() / r.get("robostream_fps").asDouble(),
        1 / r.get("ratio").asDouble(),
        1e-6);
    // ffmpeg's start-up is measured and left out of its rate, which is then the higher one.
    assertTrue(r.get("ffmpeg_startup_seconds").asDouble() > 0);
    assertTrue(r.get("ffmpeg_process_fps").asDouble() < r.get("ffmpeg_fps").asDouble());
    assertEquals(20, r.get("random_frames").asInt());
    assertTrue(r.get("random_single_decode_amplification").asDouble() >= 1.0);
    assertTrue(
        r.get("random_batch_decode_amplification").asDouble()
            <= r.get("random_single_decode_amplification").asDouble());
  }

  @Test
  void inspectDescribesTheSharedDataset() throws Exception {
    String out =
        capture(
            () ->
                assertEquals(
                    0, Main.run("inspect", Fixtures.sharedDataset().toString(), "--json")));
    JsonNode json = Json.MAPPER.readTree(out);
    assertEquals("v2.1", json.get("codebase_version").asText());
    assertEquals(30, json.get("fps").asInt());
    assertEquals(100, json.get("episodes").asInt());
    assertEquals(35965, json.get("frames").asLong());
    assertEquals(1, json.get("tasks").asInt());
    assertEquals(3, json.get("data_files_present").asInt());
    JsonNode camera = json.get("cameras").get(0);
    assertEquals("observation.images.cam_high", camera.get("key").asText());
    assertEquals("av1", camera.get("codec").asText());
    assertEquals(640, camera.get("width").asInt());
    assertEquals(3, camera.get("video_files_present").asInt());
    String text =
        capture(() -> assertEquals(0, Main.run("inspect", Fixtures.sharedDataset().toString())));
    assertTrue(
        text.contains(
            "camera observation.images.cam_high (video): declared 480 x 640 x 3 (H x W x C), av1"
                + " yuv420p; probed av1 640x480 yuv420p; video files present 3/100"),
        text);
  }

  @Test
  void makeDatasetWritesAV30DatasetThatInspectDescribes() throws Exception {
    Path out = tmp.resolve("made");
    capture(
        () ->
            assertEquals(
                0,
                Main.run(
                    "make-dataset",
                    "--out",
                    out.toString(),
                    "--episodes",
                    "3",
                    "--frames-per-episode",
                    "10",
                    "--cameras",
                    "1",
                    "--size",
                    "64x48",
                    "--codec",
                    "h264",
                    "--gop",
                    "4",
                    "--layout",
                    "v3.0",
                    "--video-files-size-mb",
                    "0.004")));
    String text = capture(() -> assertEquals(0, Main.run("inspect", out.toString(), "--json")));
    JsonNode json = Json.MAPPER.readTree(text);
    assertEquals("v3.0", json.get("codebase_version").asText());
    assertEquals(3, json.get("episodes").asInt());
    assertEquals(30, json.get("frames").asLong());
    assertEquals(1, json.get("data_files").asInt(), "one shared data file");
    JsonNode camera = json.get("cameras").get(0);
    assertEquals("h264", camera.get("codec").asText());
    assertEquals(48, camera.get("height").asInt());
    assertTrue(camera.get("video_files").asInt() > 1, "video files rolled over: " + camera);
    assertEquals(camera.get("video_files").asInt(), camera.get("video_files_present").asInt());
    // Refuses a non-empty folder and bad sizes with exit code != 0.
    assertTrue(Main.run("make-dataset", "--out", out.toString()) != 0);
    assertEquals(
        2, Main.run("make-dataset", "--out", tmp.resolve("x").toString(), "--size", "32x32"));
  }
}
