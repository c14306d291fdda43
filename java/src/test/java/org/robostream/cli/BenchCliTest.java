package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.bench.LatencyStats;
import org.robostream.testing.Datasets;

/** bench (metrics, files, zero-frames exit) and summarize (table, csv, png, empty folder). */
class BenchCliTest {
  @TempDir Path tmp;

  static String capture(Runnable r) {
    PrintStream old = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true));
    try {
      r.run();
    } finally {
      System.setOut(old);
    }
    return bytes.toString();
  }

  @Test
  void benchWritesTheReferenceMetricsAndSummarizeComparesRuns() throws Exception {
    Path out = tmp.resolve("results");
    String root = Datasets.patternV30().toString();
    for (String mode : List.of("single", "sarm")) {
      capture(() -> assertEquals(0, Main.run("bench", "--root", root, "--mode", mode,
          "--num-batches", "10", "--warmup_batches", "2", "--batch-size", "4", "--num-workers",
          "2", "--buffer-size", "20", "--out-dir", out.toString(),
          mode.equals("single") ? "--baseline=ffmpeg" : "--seed=7")));
    }
    Path json = out.resolve("local_single_bs4_w2_cpu.json");
    assertTrue(Files.isRegularFile(out.resolve("local_single_bs4_w2_cpu.csv")));
    JsonNode r = Json.MAPPER.readTree(json.toFile());
    assertEquals(7 * 4, r.get("frames_measured").asLong(), "batches 3..9 of 10 are measured");
    for (String key : List.of("first_batch_latency_s", "frames_per_s_node", "samples_per_s",
        "p50_sample_latency_ms", "p95_sample_latency_ms", "p99_sample_latency_ms", "wallclock_s",
        "decoded_frames_per_s", "decode_amplification", "peak_rss_bytes", "baseline_ratio")) {
      assertTrue(r.get(key).asDouble() > 0, key + " = " + r.get(key));
    }
    assertEquals(2 * r.get("frames_per_s_node").asDouble(),
        r.get("decoded_frames_per_s").asDouble(), 1.0, "two cameras, one frame each");
    assertTrue(r.get("video_decoder_cache").get("hit_rate").asDouble() > 0);
    String table = capture(() -> assertEquals(0, Main.run("summarize", out.toString())));
    assertTrue(table.contains("frames/s/node"), table);
    List<String> lines = table.lines().filter(l -> l.startsWith("local")).toList();
    assertEquals(2, lines.size(), table);
    assertTrue(lines.get(0).contains("sarm") && lines.get(1).contains("single"), table);
    assertEquals(3, Files.readAllLines(out.resolve("summary.csv")).size());
    byte[] png = Files.readAllBytes(out.resolve("summary.png"));
    assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G');
  }

  @Test
  void zeroFramesMeasuredIsANonZeroExitAndNoResultsIsAMessage() {
    assertEquals(3, Main.run("bench", "--root", Datasets.patternV30().toString(),
        "--num-batches", "2", "--warmup-batches", "5", "--batch-size", "4", "--num-workers", "1",
        "--out-dir", tmp.resolve("r").toString()));
    String out = capture(() -> assertEquals(0, Main.run("summarize",
        tmp.resolve("empty").toString())));
    assertTrue(out.contains("no benchmark results"), out);
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
