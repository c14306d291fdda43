package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.SummaryTables;

/**
 * {@code --frame-cache} on bench, stream-bench and train: a bad spec is an exit 2 naming the flag;
 * bench's result counts the frames decoded apart from those the cache served, per epoch and in the
 * window, and summarize shows them; without the flag there is no frame_cache block.
 */
class FrameCacheCliTest {
  @TempDir Path tmp;

  /** The pattern dataset's batches of 4 in one epoch (single mode, partial batches dropped). */
  static final int BATCHES_PER_EPOCH = Datasets.totalFrames(Datasets.patternV30()) / 4;

  @Test
  void aMemoryCacheServesEveryEpochAfterTheFirstAndTheResultSaysSo() throws Exception {
    Path out = tmp.resolve("cached");
    // Exactly 3 epochs, so no worker is still fetching when the counters are read.
    BenchCliTest.BenchRun run =
        BenchCliTest.benchOnePattern(
            out,
            "--buffer-size",
            "4",
            "--num-batches",
            "" + 3 * BATCHES_PER_EPOCH,
            "--warmup-batches",
            "2",
            "--device",
            "cpu",
            "--baseline",
            "ffmpeg",
            "--frame-cache",
            "memory:64M");
    JsonNode r = run.result();
    JsonNode epochs = r.get("epochs");
    assertEquals(3, epochs.size(), r.toString());
    long decoded = 0;
    long fromCache = 0;
    for (JsonNode e : epochs) {
      assertEquals(BATCHES_PER_EPOCH, e.get("batches").asInt(), e.toString());
      assertEquals(4L * BATCHES_PER_EPOCH, e.get("samples").asLong(), e.toString());
      assertTrue(e.get("seconds").asDouble() > 0 && e.get("samples_per_s").asDouble() > 0);
      decoded += e.get("frames_decoded").asLong();
      fromCache += e.get("frames_from_cache").asLong();
    }
    assertEquals(0, epochs.get(0).get("frames_from_cache").asLong(), "epoch 1 fills the cache");
    assertTrue(epochs.get(0).get("frames_decoded").asLong() > 0, epochs.toString());
    for (int e = 1; e < 3; e++) {
      assertEquals(0, epochs.get(e).get("frames_decoded").asLong(), "epoch " + (e + 1));
      assertEquals(
          2L * 4 * BATCHES_PER_EPOCH,
          epochs.get(e).get("frames_from_cache").asLong(),
          "two cameras, every frame of the epoch from the cache");
    }
    assertTrue(r.get("epoch1_samples_per_s").asDouble() > 0, r.toString());
    assertTrue(r.get("later_epochs_samples_per_s").asDouble() > 0, r.toString());
    // Per frame decoded for delivery (cached ones cost nothing): at least one decoded frame each.
    double amplification = r.get("decode_amplification").asDouble();
    assertTrue(amplification >= 1.0 && amplification < 1.5, "amplification " + amplification);
    JsonNode c = r.get("frame_cache");
    assertEquals("memory:64M", c.get("spec").asText());
    assertEquals(fromCache, c.get("hits").asLong(), "every frame served is a hit: " + c);
    assertEquals(decoded + fromCache, c.get("hits").asLong() + c.get("misses").asLong(), "" + c);
    assertEquals(c.get("misses").asLong(), c.get("stored").asLong(), "each miss stored once");
    assertEquals(64L << 20, c.get("max_bytes").asLong());
    assertEquals(0, c.get("evictions").asLong());
    assertEquals(0, c.get("checksum_failures").asLong());
    assertTrue(c.get("bytes_served").asLong() > 0 && c.get("file_bytes").asLong() > 0, "" + c);
    assertTrue(c.get("disabled").isNull(), c.toString());
    assertEquals(
        c.get("hits").asDouble() / (c.get("hits").asLong() + c.get("misses").asLong()),
        c.get("hit_rate").asDouble(),
        1e-4);
    // The window spans the end of epoch 1 and epochs 2 and 3: mostly served from the cache.
    long windowDecoded = r.get("window_frames_decoded").asLong();
    long windowCached = r.get("window_frames_from_cache").asLong();
    assertTrue(windowCached > windowDecoded && windowDecoded > 0, r.toString());
    double served = r.get("served_frames_per_s").asDouble();
    double decodedRate = r.get("decoded_frames_per_s").asDouble();
    assertEquals(
        (windowDecoded + windowCached) / (double) windowDecoded,
        served / decodedRate,
        0.01,
        "served and decoded rates share the window's time");
    double ffmpeg = r.get("baseline_frames_per_s").asDouble();
    assertEquals(decodedRate / ffmpeg, r.get("baseline_ratio").asDouble(), 0.002, "decoded only");
    assertEquals(served / ffmpeg, r.get("served_ratio").asDouble(), 0.002);
    // Frames read from the cache inside the window were fetched in it: not drained memory.
    assertFalse(r.get("window_served_from_memory").asBoolean(), r.toString());
    String summary =
        BenchCliTest.capture(() -> assertEquals(0, Main.run("summarize", out.toString())));
    Map<String, String> row = SummaryTables.parse(summary).get(0);
    assertEquals(r.get("served_frames_per_s").asText(), row.get("served_frames/s"), summary);
    assertEquals(c.get("hit_rate").asText(), row.get("frame_cache_hit_rate"), summary);
    assertTrue(summary.contains("\n  served_frames/s: frames decoded or read from"), summary);
  }

  @Test
  void benchPrintsTheCacheLineAndWithoutTheFlagHasNoBlock() throws Exception {
    String[] flags = {"--buffer-size", "4", "--warmup-batches", "2", "--device", "cpu"};
    Path plain = tmp.resolve("plain");
    BenchCliTest.BenchRun run =
        BenchCliTest.benchOnePattern(plain, with(flags, "--num-batches", "10"));
    assertFalse(run.out().contains("frame cache"), run.out());
    JsonNode r = run.result();
    assertTrue(r.has("frame_cache") && r.get("frame_cache").isNull(), r.toString());
    assertEquals(0, r.get("window_frames_from_cache").asLong());
    assertEquals(r.get("decoded_frames_per_s"), r.get("served_frames_per_s"), r.toString());
    assertEquals(1, r.get("epochs").size(), r.toString());
    assertTrue(r.get("later_epochs_samples_per_s").isNull(), "one epoch: " + r);
    String summary =
        BenchCliTest.capture(() -> assertEquals(0, Main.run("summarize", plain.toString())));
    assertFalse(summary.contains("served_frames/s"), "no cached run, no columns: " + summary);
    String folder = tmp.resolve("frames").toString();
    BenchCliTest.BenchRun cached =
        BenchCliTest.benchOnePattern(
            tmp.resolve("cached"),
            with(
                flags,
                "--num-batches",
                "" + (BATCHES_PER_EPOCH + 10),
                "--frame-cache",
                folder + ":16M"));
    assertTrue(
        cached.out().contains("frame cache " + folder + ":16M: ")
            && cached.out().contains(" served from the cache (")
            && cached.out().contains("; epoch 1 "),
        cached.out());
    assertTrue(Files.isDirectory(Path.of(folder)), "the folder holds the cache");
  }

  private static String[] with(String[] flags, String... more) {
    List<String> all = new java.util.ArrayList<>(List.of(flags));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  @Test
  void aBadSpecIsAUsageErrorNamingTheFlagOnEveryCommand() {
    String root = Datasets.patternV30().toString();
    String never = tmp.resolve("never").toString();
    String[][] cases = {
      {"memory", "--frame-cache memory: write shared:SIZE, memory:SIZE or DIR:SIZE"},
      {"memory:lots", "--frame-cache memory:lots: lots is not a size"},
      {"memory:1K", "--frame-cache memory:1K: a frame cache needs at least 1 MiB"},
      {":4G", "--frame-cache :4G: write shared:SIZE, memory:SIZE or DIR:SIZE"}
    };
    for (String[] c : cases) {
      for (String[] command :
          new String[][] {
            {"bench", "--root", root, "--out-dir", never},
            {"stream-bench", root},
            {"train", "--root", root, "--dummy", "--output-dir", never}
          }) {
        List<String> args = new java.util.ArrayList<>(List.of(command));
        args.add("--frame-cache=" + c[0]);
        String err =
            BenchCliTest.captureErr(
                () -> assertEquals(2, Main.run(args.toArray(String[]::new)), args.toString()));
        assertTrue(err.contains(c[1]), args + ": " + err);
      }
    }
    assertFalse(Files.exists(Path.of(never)), "nothing ran");
  }

  /** A folder that cannot be made is refused when the dataset is built, naming it and the flag. */
  @Test
  void aFolderThatCannotBeMadeIsRefusedNamingItAndTheFlag() throws Exception {
    Path aFile = Files.writeString(tmp.resolve("a-file"), "not a folder");
    String folder = aFile.resolve("frames").toString();
    String err =
        BenchCliTest.captureErr(
            () ->
                assertEquals(
                    1,
                    Main.run(
                        "stream-bench",
                        Datasets.patternV30().toString(),
                        "--frame-cache",
                        folder + ":16M")));
    assertTrue(err.contains(folder) && err.contains("--frame-cache cannot use this folder"), err);
  }

  @Test
  void trainReadsItsSecondEpochFromTheCacheAndSaysSo() throws Exception {
    String printed =
        BenchCliTest.capture(
            () ->
                assertEquals(
                    0,
                    Main.run(
                        "train",
                        "--root",
                        Datasets.patternV30().toString(),
                        "--dummy",
                        "--epochs",
                        "2",
                        "--steps",
                        "100000",
                        "--batch-size",
                        "4",
                        "--num-workers",
                        "1",
                        "--frame-cache",
                        "memory:64M",
                        "--output-dir",
                        tmp.resolve("train").toString())));
    String line =
        printed.lines().filter(l -> l.startsWith("frame_cache {")).findFirst().orElseThrow();
    JsonNode c = Json.MAPPER.readTree(line.substring("frame_cache ".length()));
    assertEquals("memory:64M", c.get("spec").asText(), line);
    assertTrue(c.get("hits").asLong() > 0, "the second epoch read the cache: " + line);
    assertEquals(c.get("misses").asLong(), c.get("stored").asLong(), line);
  }

  @Test
  void streamBenchReportsTheCacheItsSecondRoundRead() throws Exception {
    Path json = tmp.resolve("stream.json");
    BenchCliTest.capture(
        () ->
            assertEquals(
                0,
                Main.run(
                    "stream-bench",
                    Datasets.patternV30().toString(),
                    "--batch-size",
                    "4",
                    "--workers",
                    "1",
                    "--rounds",
                    "2",
                    "--frame-cache",
                    "memory:64M",
                    "--json",
                    json.toString())));
    JsonNode c = Json.MAPPER.readTree(json.toFile()).get("frame_cache");
    assertEquals("memory:64M", c.get("spec").asText(), c.toString());
    assertTrue(c.get("hits").asLong() > 0 && c.get("stored").asLong() > 0, c.toString());
  }
}
