package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;

/**
 * {@code make-dataset --image-features png|jpeg} writes cameras as image features that stream, and
 * {@code stream-bench} measures them against a sequential decode of the same images.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.robostream.testing.NativeLeakCheck.class)
class MakeDatasetImageFeaturesTest {
  @TempDir Path tmp;

  @Test
  void imageFeaturesAreDeclaredStoredInTheDataFilesAndStream() throws Exception {
    for (String layout : new String[] {"v2.1", "v3.0"}) {
      Path out = tmp.resolve(layout);
      assertEquals(0, makeImages(out, "jpeg", "--layout", layout));
      JsonNode info = Json.MAPPER.readTree(out.resolve("meta/info.json").toFile());
      JsonNode top = info.get("features").get("observation.images.top");
      assertEquals("image", top.get("dtype").asText());
      assertEquals("[48,64,3]", top.get("shape").toString());
      assertFalse(Files.exists(out.resolve("videos")), "no videos");
      int frames = 0;
      try (StreamingDataset ds = StreamingDataset.builder(out).batchSize(4).build()) {
        for (Batch b : ds) {
          try (b) {
            assertArrayEquals(
                new int[] {b.size(), 3, 48, 64}, b.frameShape("observation.images.wrist"));
            frames += b.size();
          }
        }
      }
      assertEquals(12, frames, layout);
    }
    // stream-bench compares the loader with a sequential decode of the same images.
    Path json = tmp.resolve("bench.json");
    JsonNode bench = streamBench(tmp.resolve("v3.0").toString(), json);
    assertEquals(2, bench.get("cameras").asInt());
    assertTrue(bench.get("sequential_decode_fps").asDouble() > 0, bench.toString());
    assertTrue(bench.get("stream_frames_per_s").asDouble() > 0, bench.toString());
    assertEquals(
        2,
        Main.run("make-dataset", "--out", tmp.resolve("x").toString(), "--image-features", "gif"));
    // The ffmpeg CLI baseline times video files only: refused with image features, before any
    // measurement.
    assertEquals(
        2,
        Main.run(
            "bench",
            "--root",
            tmp.resolve("v3.0").toString(),
            "--baseline",
            "ffmpeg",
            "--num-batches",
            "2",
            "--out-dir",
            tmp.resolve("bench-out").toString()));
  }

  /** Channels-first image features ([3, H, W]): stream-bench's sequential baseline decodes them. */
  @Test
  void channelsFirstImageFeaturesAreMeasuredByStreamBench() throws Exception {
    Path out = tmp.resolve("chw");
    assertEquals(0, makeImages(out, "png", "--channels-first"));
    assertEquals(
        "[3,48,64]",
        Json.MAPPER
            .readTree(out.resolve("meta/info.json").toFile())
            .get("features")
            .get("observation.images.top")
            .get("shape")
            .toString());
    Path json = tmp.resolve("chw.json");
    JsonNode bench = streamBench(out.toString(), json);
    assertTrue(bench.get("sequential_decode_fps").asDouble() > 0, bench.toString());
  }

  /** One round of stream-bench over {@code dataset} in batches of 4: its JSON result. */
  private static JsonNode streamBench(String dataset, Path json) throws Exception {
    assertEquals(
        0,
        Main.run(
            "stream-bench",
            dataset,
            "--rounds",
            "1",
            "--warmup-batches",
            "0",
            "--batch-size",
            "4",
            "--json",
            json.toString()));
    return Json.MAPPER.readTree(json.toFile());
  }

  /** make-dataset of 2 episodes x 6 frames, 2 cameras 64x48 stored as {@code format} images. */
  private static int makeImages(Path out, String format, String... more) {
    java.util.List<String> args =
        new java.util.ArrayList<>(
            java.util.List.of(
                "make-dataset",
                "--out",
                out.toString(),
                "--episodes",
                "2",
                "--frames-per-episode",
                "6",
                "--cameras",
                "2",
                "--size",
                "64x48",
                "--codec", // checked against the size even though no video is written
                "h264",
                "--image-features",
                format));
    args.addAll(java.util.List.of(more));
    return Main.run(args.toArray(String[]::new));
  }
}
