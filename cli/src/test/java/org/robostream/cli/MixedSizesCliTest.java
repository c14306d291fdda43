package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;

/**
 * The command line of issue 14's camera options: make-dataset's per-camera sizes, declared axis
 * order, pixel format and depth cameras; {@code --resize} on a dataset whose cameras differ in
 * size.
 */
class MixedSizesCliTest {
  @TempDir Path tmp;

  @Test
  void makeDatasetGivesEachCameraItsOwnOptions() throws Exception {
    Path out = tmp.resolve("made");
    String text =
        CliTest.capture(
            () ->
                assertEquals(
                    0,
                    Main.run(
                        "make-dataset",
                        "--out",
                        out.toString(),
                        "--episodes",
                        "1",
                        "--frames-per-episode",
                        "3",
                        "--cameras",
                        "2",
                        "--size",
                        "64x48,top=128x96",
                        "--codec",
                        "h264",
                        "--pix-fmt",
                        "yuv444p",
                        "--channels-first",
                        "--depth-cameras",
                        "1")));
    assertTrue(text.contains("top 128x96 h264 yuv444p"), text);
    assertTrue(text.contains("wrist 64x48 h264 yuv444p"), text);
    assertTrue(text.contains("depth 64x48 hevc gray12le"), text);
    JsonNode features =
        Json.MAPPER.readTree(out.resolve("meta/info.json").toFile()).get("features");
    assertEquals(List.of(3, 96, 128), ints(features.get("observation.images.top").get("shape")));
    assertEquals(List.of(3, 48, 64), ints(features.get("observation.images.wrist").get("shape")));
    assertEquals(List.of(1, 48, 64), ints(features.get("observation.images.depth").get("shape")));

    String err =
        BenchCliTest.captureErr(
            () ->
                assertEquals(
                    2,
                    Main.run(
                        "make-dataset",
                        "--out",
                        tmp.resolve("x").toString(),
                        "--size",
                        "top=12x")));
    assertTrue(err.contains("a size is WxH"), err);
    err =
        BenchCliTest.captureErr(
            () ->
                assertEquals(
                    2,
                    Main.run(
                        "make-dataset", "--out", tmp.resolve("y").toString(), "--pix-fmt", "rgb")));
    assertTrue(err.contains("yuv420p, yuv444p or yuv420p10le"), err);
  }

  @Test
  void streamBenchResizesCamerasOfDifferentSizes() throws Exception {
    String root = Datasets.mixedSizesV30().toString();
    Path json = tmp.resolve("stream.json");
    CliTest.capture(
        () ->
            assertEquals(
                0,
                Main.run(
                    "stream-bench",
                    root,
                    "--workers",
                    "2",
                    "--batch-size",
                    "4",
                    "--rounds",
                    "1",
                    "--resize",
                    "64x64,observation.images.wrist=48x64",
                    "--json",
                    json.toString())));
    JsonNode r = Json.MAPPER.readTree(json.toFile());
    assertEquals(3, r.get("cameras").asInt());
    assertTrue(r.get("stream_frames_per_s").asDouble() > 0, r.toString());

    String syntax =
        BenchCliTest.captureErr(
            () -> assertEquals(2, Main.run("stream-bench", root, "--resize", "64by64")));
    assertTrue(syntax.contains("--resize takes HxW or CAMERA=HxW"), syntax);
    String camera =
        BenchCliTest.captureErr(
            () ->
                assertEquals(
                    2,
                    Main.run("stream-bench", root, "--resize", "observation.images.left=64x64")));
    assertTrue(camera.contains("--resize names observation.images.left"), camera);
  }

  private static List<Integer> ints(JsonNode array) {
    List<Integer> out = new java.util.ArrayList<>();
    array.forEach(n -> out.add(n.asInt()));
    return out;
  }
}
