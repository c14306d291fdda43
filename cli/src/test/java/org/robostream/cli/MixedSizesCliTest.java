package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.Processes;

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

  @Test
  void benchAndTrainStreamCamerasOfDifferentSizesResized() throws Exception {
    String root = Datasets.mixedSizesV30().toString();
    Path out = tmp.resolve("bench");
    CliTest.capture(
        () ->
            assertEquals(
                0,
                Main.run(
                    "bench",
                    "--root",
                    root,
                    "--mode",
                    "sarm",
                    "--num-batches",
                    "4",
                    "--warmup-batches",
                    "1",
                    "--batch-size",
                    "4",
                    "--num-workers",
                    "2",
                    "--buffer-size",
                    "20",
                    "--resize",
                    "64x64",
                    "--out-dir",
                    out.toString())));
    JsonNode r = Json.MAPPER.readTree(out.resolve("local_sarm_bs4_w2_cpu.json").toFile());
    assertEquals(3, r.get("num_cameras").asInt());
    assertTrue(r.get("frames_per_s_node").asDouble() > 0, r.toString());

    Map<String, String> env = new HashMap<>();
    env.put("SLURM_PROCID", null);
    env.put("SLURM_NTASKS", null);
    Path record = tmp.resolve("indices.txt");
    Processes.Result t =
        Processes.run(
            env,
            null,
            120,
            Processes.cli(
                "train",
                "--root",
                root,
                "--epochs",
                "1",
                "--batch-size",
                "4",
                "--n-action-steps",
                "2",
                "--resize",
                "observation.images.top=48x64",
                "--record-indices",
                record.toString(),
                "--output-dir",
                tmp.resolve("train").toString()));
    assertEquals(0, t.rc(), t.output());
    assertEquals(
        Datasets.totalFrames(Datasets.mixedSizesV30()),
        new HashSet<>(TrainCliTest.indices(record, Integer.MAX_VALUE)).size(),
        t.output());
  }

  private static List<Integer> ints(JsonNode array) {
    List<Integer> out = new java.util.ArrayList<>();
    array.forEach(n -> out.add(n.asInt()));
    return out;
  }
}
