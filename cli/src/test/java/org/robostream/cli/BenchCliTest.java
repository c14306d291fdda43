package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.bench.LatencyStats;
import org.robostream.bench.WindowFidelity;
import org.robostream.nativecore.Cuda;
import org.robostream.testing.Datasets;
import org.robostream.testing.Processes;
import org.robostream.testing.SummaryTables;

/** bench (metrics, files, zero-frames exit) and summarize (table, csv, png, empty folder). */
class BenchCliTest {
  @TempDir Path tmp;

  static String capture(Runnable r) {
    return capture(r, false);
  }

  /** What {@code r} writes to stderr (picocli's error stream is System.err at execution). */
  static String captureErr(Runnable r) {
    return capture(r, true);
  }

  private static String capture(Runnable r, boolean stderr) {
    PrintStream old = stderr ? System.err : System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream into = new PrintStream(bytes, true);
    if (stderr) {
      System.setErr(into);
    } else {
      System.setOut(into);
    }
    try {
      r.run();
    } finally {
      if (stderr) {
        System.setErr(old);
      } else {
        System.setOut(old);
      }
    }
    return bytes.toString();
  }

  @Test
  void benchWritesTheReferenceMetricsAndSummarizeComparesRuns() throws Exception {
    Path out = tmp.resolve("results");
    String root = Datasets.patternV30().toString();
    for (String mode : List.of("single", "sarm")) {
      capture(
          () ->
              assertEquals(
                  0,
                  Main.run(
                      "bench",
                      "--root",
                      root,
                      "--mode",
                      mode,
                      // 120 of the dataset's ~210 samples: more than the 2 workers can hold
                      // ahead (buffer + prefetched batches, about 64), so the window always
                      // decodes (10 batches could be served whole from the buffer: flaky)
                      "--num-batches",
                      "30",
                      "--warmup_batches",
                      "2",
                      "--batch-size",
                      "4",
                      "--num-workers",
                      "2",
                      "--buffer-size",
                      "20",
                      "--out-dir",
                      out.toString(),
                      mode.equals("single") ? "--baseline=ffmpeg" : "--seed=7")));
    }
    Path json = out.resolve("local_single_bs4_w2_cpu.json");
    assertTrue(Files.isRegularFile(out.resolve("local_single_bs4_w2_cpu.csv")));
    JsonNode r = Json.MAPPER.readTree(json.toFile());
    assertEquals(27 * 4, r.get("frames_measured").asLong(), "batches 3..29 of 30 are measured");
    for (String key :
        List.of(
            "first_batch_latency_s",
            "frames_per_s_node",
            "samples_per_s",
            "p50_sample_latency_ms",
            "p95_sample_latency_ms",
            "p99_sample_latency_ms",
            "wallclock_s",
            "decoded_frames_per_s",
            "decode_amplification",
            "peak_rss_bytes",
            "baseline_ratio")) {
      assertTrue(r.get(key).asDouble() > 0, key + " = " + r.get(key));
    }
    assertEquals(
        2 * r.get("frames_per_s_node").asDouble(),
        r.get("delivered_frames_per_s").asDouble(),
        1.0,
        "two cameras, one frame each");
    assertEquals(
        r.get("decoded_frames_per_s").asDouble() / r.get("baseline_frames_per_s").asDouble(),
        r.get("baseline_ratio").asDouble(),
        0.002,
        "the ratio to the ffmpeg CLI" + " sets decoded frames/s against its decode rate");
    assertTrue(r.get("video_decoder_cache").get("hit_rate").asDouble() > 0);
    String table = capture(() -> assertEquals(0, Main.run("summarize", out.toString())));
    List<Map<String, String>> rows = SummaryTables.parse(table);
    assertEquals(2, rows.size(), table);
    assertEquals(List.of("sarm", "single"), rows.stream().map(x -> x.get("mode")).toList());
    for (Map<String, String> row : rows) {
      JsonNode result =
          Json.MAPPER.readTree(
              out.resolve("local_" + row.get("mode") + "_bs4_w2_cpu.json").toFile());
      assertEquals("local", row.get("source"), table);
      assertEquals("cpu", row.get("decode"), table);
      assertEquals("2", row.get("workers"), table);
      assertEquals("4", row.get("bs"), table);
      for (String[] column :
          new String[][] {
            {"frames/s/node", "frames_per_s_node"},
            {"first_batch_s", "first_batch_latency_s"},
            {"p50_ms", "p50_sample_latency_ms"},
            {"p95_ms", "p95_sample_latency_ms"},
            {"p99_ms", "p99_sample_latency_ms"},
            {"amplification", "decode_amplification"}
          }) {
        assertEquals(result.get(column[1]).asText(), row.get(column[0]), column[0] + ": " + table);
      }
      assertEquals(
          result.get("video_decoder_cache").get("hit_rate").asText(),
          row.get("cache_hit_rate"),
          table);
      assertEquals(result.path("baseline_ratio").asText(""), row.get("baseline_ratio"), table);
    }
    assertTrue(rows.get(1).get("baseline_ratio").length() > 0, "single ran the baseline");
    assertEquals(3, Files.readAllLines(out.resolve("summary.csv")).size());
    byte[] png = Files.readAllBytes(out.resolve("summary.png"));
    assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G');
  }

  @Test
  void zeroFramesMeasuredIsANonZeroExitAndNoResultsIsAMessage() {
    String err =
        captureErr(
            () ->
                assertEquals(
                    3,
                    Main.run(
                        "bench",
                        "--root",
                        Datasets.patternV30().toString(),
                        "--num-batches",
                        "2",
                        "--warmup-batches",
                        "5",
                        "--batch-size",
                        "4",
                        "--num-workers",
                        "1",
                        "--out-dir",
                        tmp.resolve("r").toString())));
    assertTrue(err.contains("0 frames measured (2 batches delivered, 5 warm-up)"), err);
    assertTrue(err.contains("Try more --num-batches, fewer --warmup-batches"), err);
    assertFalse(Files.exists(tmp.resolve("r")), "no result files for a failed measurement");
    String out =
        capture(() -> assertEquals(0, Main.run("summarize", tmp.resolve("empty").toString())));
    assertTrue(out.contains("no benchmark results"), out);
  }

  @Test
  void aCpuFallbackRunKeepsTheRequestedNameButShowsTheEffectiveDevice() throws Exception {
    assumeFalse(Cuda.nvdecAvailable(0), "a GPU decodes here: nothing falls back");
    Path out = tmp.resolve("fallback");
    String printed =
        capture(
            () ->
                assertEquals(
                    0,
                    Main.run(
                        "bench",
                        "--root",
                        Datasets.patternV30().toString(),
                        "--num-batches",
                        "6",
                        "--warmup-batches",
                        "1",
                        "--batch-size",
                        "4",
                        "--num-workers",
                        "1",
                        "--buffer-size",
                        "20",
                        "--video-decode-device",
                        "cuda-or-cpu",
                        "--out-dir",
                        out.toString())));
    assertTrue(printed.contains("decode cuda-or-cpu→cpu:"), printed);
    JsonNode r = Json.MAPPER.readTree(out.resolve("local_single_bs4_w1_cuda-or-cpu.json").toFile());
    assertEquals("cuda-or-cpu", r.get("video_decode_device").asText());
    assertEquals("cpu", r.get("decode_device_effective").asText());
    assertTrue(
        r.get("cpu_fallback_reason").asText().contains(Cuda.unavailabilityCause()), r.toString());
    String table = capture(() -> assertEquals(0, Main.run("summarize", out.toString())));
    assertEquals("cuda-or-cpu→cpu", SummaryTables.parse(table).get(0).get("decode"), table);
  }

  @Test
  void badFlagsExitTwoAtOnceBeforeAnythingIsMeasured() {
    String root = Datasets.patternV30().toString();
    String out = tmp.resolve("never").toString();
    // Each case: flags, then a piece of the message. --repo-id cases never reach the network.
    String[][] cases = {
      {"--baseline=ffprobe", "--baseline must be ffmpeg", "--root", root},
      {"--baseline=ffmpeg", "reads them by range requests", "--repo-id", "owner/name"},
      {
        "--source=s3",
        "--source must be one of local, hub, bucket, warmed_bucket, local_mirror",
        "--root",
        root
      },
      {"--source=local", "--source local needs a local dataset", "--repo-id", "owner/name"},
      {"--source=bucket", "add --data-files-root hf://buckets/", "--repo-id", "owner/name"},
      {
        "--source=warmed_bucket",
        "warmed_bucket reads data/ and videos/ from a bucket",
        "--repo-id",
        "owner/name"
      },
      {
        "--video-decode-device=tpu",
        "--video-decode-device must be cpu, cuda[:N] or cuda-or-cpu",
        "--root",
        root
      },
      {"--mode=multi", "--mode must be single or sarm", "--root", root},
      {"--warmup-batches=-1", "--warmup-batches must be >= 0, got -1", "--root", root},
      {"--num-batches=0", "--num-batches must be >= 1, got 0", "--root", root},
      {"--batch-size=-64", "--batch-size must be >= 1, got -64", "--root", root},
      {"--num-workers=0", "--num-workers must be >= 1, got 0", "--root", root},
      {"--device=tpu", "--device must be cpu, cuda or cuda:N", "--root", root}
    };
    for (String[] c : cases) {
      long start = System.nanoTime();
      String err =
          captureErr(
              () ->
                  assertEquals(
                      2,
                      Main.run("bench", c[0], c[2], c[3], "--out-dir", out),
                      String.join(" ", c)));
      assertTrue(err.contains(c[1]), c[0] + ": " + err);
      assertTrue(System.nanoTime() - start < 5_000_000_000L, c[0] + " took too long");
    }
    assertFalse(Files.exists(Path.of(out)));
    // A local dataset may carry any of the reference's labels.
    assertEquals(
        0,
        Main.run(
            "bench",
            "--root",
            root,
            "--source",
            "warmed_bucket",
            "--num-batches",
            "3",
            "--warmup-batches",
            "1",
            "--batch-size",
            "4",
            "--num-workers",
            "1",
            "--buffer-size",
            "20",
            "--out-dir",
            out));
    assertTrue(Files.isRegularFile(Path.of(out, "warmed_bucket_single_bs4_w1_cpu.json")));
  }

  /** A bench run's result JSON and what it wrote to stderr and stdout. */
  record BenchRun(JsonNode result, String err, String out) {}

  /** bench on the 7-episode pattern dataset (about 210 samples), one worker, batches of 4. */
  static BenchRun benchOnePattern(Path out, String... flags) throws Exception {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "bench",
                "--root",
                Datasets.patternV30().toString(),
                "--batch-size",
                "4",
                "--num-workers",
                "1",
                "--out-dir",
                out.toString()));
    args.addAll(List.of(flags));
    String[] printed = {null};
    String err =
        captureErr(
            () ->
                printed[0] = capture(() -> assertEquals(0, Main.run(args.toArray(String[]::new)))));
    return new BenchRun(
        Json.MAPPER.readTree(out.resolve("local_single_bs4_w1_cpu.json").toFile()),
        err,
        printed[0]);
  }

  @Test
  void aDatasetSmallerThanTheShuffleBufferIsFlaggedAndItsDecodedRateIsWhatTheDecodersDid()
      throws Exception {
    // A 1000-sample buffer takes the whole dataset in before the first batch: the window
    // (batches 3..29) only drains memory. The decoders did almost nothing in it.
    Path out = tmp.resolve("buffered");
    BenchRun run =
        benchOnePattern(
            out,
            "--buffer-size",
            "1000",
            "--num-batches",
            "30",
            "--warmup-batches",
            "2",
            "--device",
            "cpu",
            "--baseline",
            "ffmpeg");
    JsonNode r = run.result();
    assertTrue(r.get("window_served_from_memory").asBoolean(), r.toString());
    assertTrue(
        r.get("window_samples_decoded_share").asDouble() < WindowFidelity.THRESHOLD, r.toString());
    double delivered = r.get("delivered_frames_per_s").asDouble();
    double decoded = r.get("decoded_frames_per_s").asDouble();
    assertEquals(2 * r.get("frames_per_s_node").asDouble(), delivered, 1.0);
    assertTrue(decoded < 0.25 * delivered, "decoded " + decoded + " vs delivered " + delivered);
    assertEquals(
        decoded / r.get("baseline_frames_per_s").asDouble(),
        r.get("baseline_ratio").asDouble(),
        0.002,
        "never the delivered rate");
    assertTrue(
        r.get("whole_run_frames_per_s_node").asDouble() < r.get("frames_per_s_node").asDouble(),
        "the whole run pays for the buffer fill: " + r);
    assertTrue(r.get("whole_run_decoded_frames_per_s").asDouble() > decoded, r.toString());
    assertTrue(
        run.err().contains("WARN: the measured window (")
            && run.err().contains("was served from memory"),
        run.err());
    String table = capture(() -> assertEquals(0, Main.run("summarize", out.toString())));
    assertEquals("YES", SummaryTables.parse(table).get(0).get("from_memory"), table);
    assertTrue(
        table.contains("\n  from_memory YES: the window was served from the shuffle" + " buffer"),
        "a footnote explains the mark: " + table);
  }

  @Test
  void aWindowOfTheLoadersSteadyStateIsNotFlagged() throws Exception {
    // A 4-sample buffer and a window of 7 epochs (52 batches each), much longer than what the
    // loader holds decoded ahead (the buffer, 8-frame runs of the live episodes, 2 prefetched
    // batches): nearly every sample delivered in it was decoded in it.
    BenchRun run =
        benchOnePattern(
            tmp.resolve("steady"),
            "--buffer-size",
            "4",
            "--num-batches",
            "400",
            "--warmup-batches",
            "2",
            "--device",
            "cpu");
    JsonNode r = run.result();
    assertFalse(r.get("window_served_from_memory").asBoolean(), r.toString());
    assertTrue(
        r.get("window_samples_decoded_share").asDouble() >= WindowFidelity.THRESHOLD, r.toString());
    double ratio =
        r.get("decoded_frames_per_s").asDouble() / r.get("delivered_frames_per_s").asDouble();
    assertTrue(ratio > 0.8 && ratio < 1.5, "decoded / delivered = " + ratio + ": " + r);
    assertFalse(run.err().contains("served from memory"), run.err());
  }

  @Test
  void streamBenchFlagsAPostWarmupWindowServedFromMemoryAndRefusesNegativeCounts()
      throws Exception {
    String root = Datasets.patternV30().toString();
    String refused =
        captureErr(() -> assertEquals(2, Main.run("stream-bench", root, "--warmup-batches", "-1")));
    assertTrue(refused.contains("--warmup-batches must be >= 0, got -1"), refused);
    Path json = tmp.resolve("stream.json");
    String err =
        captureErr(
            () ->
                capture(
                    () ->
                        assertEquals(
                            0,
                            Main.run(
                                "stream-bench",
                                root,
                                "--workers",
                                "1",
                                "--batch-size",
                                "4",
                                "--buffer-size",
                                "1000",
                                "--rounds",
                                "1",
                                "--json",
                                json.toString()))));
    JsonNode r = Json.MAPPER.readTree(json.toFile());
    assertTrue(r.get("post_warmup_served_from_memory").asBoolean(), r.toString());
    assertTrue(
        r.get("post_warmup_decoded_frames_per_s").asDouble()
            < 0.25 * 2 * r.get("post_warmup_samples_per_s").asDouble(),
        r.toString());
    assertTrue(err.contains("WARN: the post-warm-up window ("), err);
  }

  @Test
  void aResultSaysWhichImageTransformsItsSamplesWentThrough() throws Exception {
    String[] small = {"--buffer-size", "4", "--num-batches", "6", "--warmup-batches", "1"};
    JsonNode plain = benchOnePattern(tmp.resolve("plain"), small).result();
    assertTrue(plain.get("image_transforms").isNull(), plain.toString());
    List<String> flags = new java.util.ArrayList<>(List.of(small));
    flags.addAll(
        List.of("--image-transforms-only", "brightness,affine", "--image-transforms-max-num", "1"));
    BenchRun run = benchOnePattern(tmp.resolve("transformed"), flags.toArray(String[]::new));
    String recorded = run.result().get("image_transforms").asText();
    assertTrue(
        recorded.startsWith(
                "ImageTransformsConfig[brightness 0.8..1.2 weight 1.0, affine -5.0..5.0")
            && recorded.endsWith("max 1]")
            && !recorded.contains("hue"),
        recorded);
    assertTrue(run.out().contains("\"image_transforms\" : \"ImageTransformsConfig["), run.out());
  }

  @Test
  void theCpuConsumerCopiesEveryByteOfEveryBatchAndTimesIt() throws Exception {
    JsonNode r =
        benchOnePattern(
                tmp.resolve("cpu"),
                "--buffer-size",
                "4",
                "--num-batches",
                "8",
                "--warmup-batches",
                "1",
                "--device",
                "cpu")
            .result();
    assertEquals("cpu", r.get("device").asText());
    long frameBytes = 4L * 2 * 3 * 64 * 64; // batch x cameras x RGB x 64 x 64, uint8
    long perBatch = r.get("to_device_bytes_per_batch").asLong();
    assertTrue(perBatch > frameBytes, "frames and table columns: " + perBatch);
    assertTrue(r.get("to_device_ms_p50").asDouble() > 0, r.toString());
    assertTrue(r.get("to_device_gb_per_s").asDouble() > 0, r.toString());
  }

  @Test
  void withoutAGpuDeviceCudaIsRefusedBeforeAnythingRuns() {
    assumeFalse(Cuda.isAvailable(), "a GPU is here");
    String err =
        captureErr(
            () ->
                assertEquals(
                    2,
                    Main.run(
                        "bench",
                        "--root",
                        Datasets.patternV30().toString(),
                        "--device",
                        "cuda",
                        "--out-dir",
                        tmp.resolve("never").toString())));
    assertTrue(err.contains("--device cuda: " + Cuda.unavailabilityCause()), err);
    assertFalse(Files.exists(tmp.resolve("never")));
  }

  @Test
  void underSlurmEachProcessBenchmarksTheWholeDatasetUnlessSplitByRankIsAsked() throws Exception {
    // Task 1 of 2 on node 1, as srun starts the multinode benchmark's second task.
    Map<String, String> slurm =
        Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2", "SLURM_NODEID", "1");
    for (boolean split : new boolean[] {false, true}) {
      Path out = tmp.resolve("slurm-" + split);
      List<String> args =
          new java.util.ArrayList<>(
              List.of(
                  "bench",
                  "--root",
                  Datasets.patternV30().toString(),
                  "--batch-size",
                  "4",
                  "--num-workers",
                  "1",
                  "--buffer-size",
                  "4",
                  "--num-batches",
                  "6",
                  "--warmup-batches",
                  "1",
                  "--device",
                  "cpu",
                  "--out-dir",
                  out.toString()));
      if (split) {
        args.add("--split-by-rank");
      }
      Processes.Result run =
          Processes.run(slurm, null, 120, Processes.cli(args.toArray(String[]::new)));
      assertEquals(0, run.rc(), run.output());
      // Named by node and task: two tasks of one job never overwrite each other's result.
      JsonNode r =
          Json.MAPPER.readTree(out.resolve("local_single_bs4_w1_cpu_node1_rank1.json").toFile());
      assertTrue(Files.isRegularFile(out.resolve("local_single_bs4_w1_cpu_node1_rank1.csv")));
      assertEquals(split ? 1 : 0, r.get("rank").asInt(), r.toString());
      assertEquals(
          split ? 2 : 1,
          r.get("world_size").asInt(),
          "the reference's per-node" + " benchmark reads the whole dataset on every node: " + r);
      assertEquals(split, r.get("split_by_rank").asBoolean());
      assertEquals(
          split ? "SLURM_PROCID/SLURM_NTASKS" : "not split", r.get("rank_source").asText());
      assertEquals(1, r.get("node").asInt());
      // The task's own rank is recorded whether or not it split the dataset.
      assertEquals(1, r.get("task_rank").asInt(), r.toString());
      assertEquals(2, r.get("task_world_size").asInt(), r.toString());
      assertFalse(r.get("hostname").asText().isEmpty());
    }
  }

  @Test
  void percentilesFollowTheReference() {
    double[] v = {5, 1, 4, 2, 3};
    assertEquals(3, LatencyStats.median(v));
    assertEquals(5, LatencyStats.nearestRank(v, 99)); // round(0.99 * 4) = 4
    assertEquals(2, LatencyStats.nearestRank(v, 30)); // round(1.2) = 1
    assertEquals(2.5, LatencyStats.median(new double[] {1, 2, 3, 4}));
  }
}
