package org.robostream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.SummaryTables;

/**
 * summarize's rows from result JSONs written by hand: the decode column tells fallback runs from
 * GPU runs, the table's columns line up and hold each row's values, and results from several
 * folders (node0/, node1/) are told apart.
 */
class ResultSummaryTest {
  @TempDir Path tmp;

  static Map<String, Object> result(
      String source, String decode, String effective, int fallbacks, double fps, double p99) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("source", source);
    r.put("mode", "single");
    r.put("batch_size", 4);
    r.put("num_workers", 2);
    r.put("video_decode_device", decode);
    r.put("first_batch_latency_s", 0.5);
    r.put("frames_per_s_node", fps);
    r.put("p50_sample_latency_ms", 1.25);
    r.put("p95_sample_latency_ms", 2.5);
    r.put("p99_sample_latency_ms", p99);
    r.put("video_decoder_cache", Map.of("hit_rate", 0.9));
    r.put("decode_amplification", 1.0);
    if (effective != null) {
      r.put("decode_device_effective", effective);
      r.put("cpu_fallbacks", fallbacks);
    }
    return r;
  }

  void write(Path dir, String name, Map<String, Object> result) throws Exception {
    ResultFiles.write(dir, name, result);
  }

  @Test
  void theDecodeColumnShowsWhereFramesReallyDecoded() throws Exception {
    write(tmp, "a", result("local", "cpu", "cpu", 0, 100, 3));
    write(tmp, "b", result("local", "cuda-or-cpu", "cpu", 0, 90, 3));
    write(tmp, "c", result("local", "cuda", "cuda", 3, 80, 3));
    write(tmp, "d", result("local", "cuda:1", "cuda", 0, 300, 3));
    write(tmp, "e", result("local", "cuda", null, 0, 70, 3)); // before the field existed
    List<String> decode =
        ResultSummary.collect(tmp).stream().map(r -> r.cells().get(2)).sorted().toList();
    assertEquals(List.of("cpu", "cuda", "cuda(3 files→cpu)", "cuda-or-cpu→cpu", "cuda:1"), decode);
    assertEquals("cuda-or-cpu→cuda", DecodeLabel.of("cuda-or-cpu", "cuda", 0));
    assertEquals("cuda(1 file→cpu)", DecodeLabel.of("cuda", "cuda", 1));
  }

  @Test
  void tableColumnsAreAlignedAndHoldEachRowsValues() throws Exception {
    write(tmp, "hub", result("hub", "cpu", "cpu", 0, 1234.56, 12.5));
    write(tmp, "bucket", result("bucket", "cuda-or-cpu", "cpu", 0, 7.5, 0.125));
    List<ResultSummary.Row> rows = ResultSummary.collect(tmp);
    List<Map<String, String>> table = SummaryTables.parse(ResultSummary.table(rows));
    assertEquals(ResultSummary.COLUMNS, List.copyOf(table.get(0).keySet()));
    assertEquals(2, table.size());
    Map<String, String> bucket = table.get(0); // sorted by source
    assertEquals("bucket", bucket.get("source"));
    assertEquals("cuda-or-cpu→cpu", bucket.get("decode"));
    assertEquals("7.5", bucket.get("frames/s/node"));
    assertEquals("0.125", bucket.get("p99_ms"));
    assertEquals("0.9", bucket.get("cache_hit_rate"));
    assertEquals("", bucket.get("baseline_ratio"));
    Map<String, String> hub = table.get(1);
    assertEquals("hub", hub.get("source"));
    assertEquals("1234.56", hub.get("frames/s/node"));
    assertEquals("12.5", hub.get("p99_ms"));
    assertEquals("2", hub.get("workers"));
    assertEquals("4", hub.get("bs"));
  }

  @Test
  void windowsServedFromMemoryAreMarkedInTheTableTheCsvAndTheChart() throws Exception {
    Map<String, Object> buffered = result("local", "cpu", "cpu", 0, 3458.7, 1);
    buffered.put("decoded_frames_per_s", 12.5);
    buffered.put("window_samples_decoded_share", 0.02);
    buffered.put("window_served_from_memory", true);
    Map<String, Object> decoded = result("local", "cuda", "cuda", 0, 480, 3);
    decoded.put("decoded_frames_per_s", 480.0);
    decoded.put("window_samples_decoded_share", 1.0);
    decoded.put("window_served_from_memory", false);
    write(tmp, "buffered", buffered);
    write(tmp, "decoded", decoded);
    write(tmp, "old", result("local", "cuda-or-cpu", "cpu", 0, 90, 3)); // before the flag
    List<ResultSummary.Row> rows = ResultSummary.collect(tmp);
    List<Map<String, String>> table = SummaryTables.parse(ResultSummary.table(rows));
    assertEquals(
        List.of("YES", "no", ""),
        table.stream().map(r -> r.get("from_memory")).toList(),
        "rows sorted by decode: cpu, cuda, cuda-or-cpu");
    assertEquals("12.5", table.get(0).get("decoded_frames/s"));
    assertEquals("0.02", table.get(0).get("decoded_share"));
    assertTrue(ResultSummary.anyFromMemory(rows));
    assertEquals("local/single/cpu w2 bs4 [from memory]", rows.get(0).label(false));
    assertEquals("local/single/cuda w2 bs4", rows.get(1).label(false));
    Path csv = tmp.resolve("summary.csv");
    ResultSummary.writeCsv(rows, csv);
    List<String> lines = Files.readAllLines(csv);
    assertTrue(
        lines.get(0).endsWith(",decoded_share,from_memory,run_bytes_from,warm_pass_s"),
        lines.get(0));
    assertTrue(lines.get(1).endsWith(",12.5,0.02,YES,,"), lines.get(1));
    assertTrue(lines.get(2).endsWith(",480.0,1.0,no,,"), lines.get(2));
  }

  @Test
  void runsWithAFrameCacheShowServedFramesAndHitRateAndAreLabelledSo() throws Exception {
    Map<String, Object> cached = result("local", "cpu", "cpu", 0, 9000, 1);
    cached.put("decoded_frames_per_s", 3.5);
    cached.put("served_frames_per_s", 18000.25);
    cached.put("frame_cache", Map.of("spec", "memory:4G", "hit_rate", 0.6667));
    Map<String, Object> decoded = result("local", "cuda", "cuda", 0, 480, 3);
    decoded.put("served_frames_per_s", 960.0);
    decoded.put("frame_cache", null); // a run without --frame-cache
    write(tmp, "cached", cached);
    write(tmp, "decoded", decoded);
    List<ResultSummary.Row> rows = ResultSummary.collect(tmp);
    List<Map<String, String>> table = SummaryTables.parse(ResultSummary.table(rows));
    assertEquals(
        ResultSummary.FRAME_CACHE_COLUMNS,
        List.copyOf(table.get(0).keySet())
            .subList(ResultSummary.COLUMNS.size(), ResultSummary.COLUMNS.size() + 2));
    assertEquals("18000.25", table.get(0).get("served_frames/s"));
    assertEquals("0.6667", table.get(0).get("frame_cache_hit_rate"));
    assertEquals("960.0", table.get(1).get("served_frames/s"));
    assertEquals("", table.get(1).get("frame_cache_hit_rate"));
    assertEquals("local/single/cpu w2 bs4 [frame cache]", rows.get(0).label(false));
    assertEquals("local/single/cuda w2 bs4", rows.get(1).label(false));
    Path csv = tmp.resolve("summary.csv");
    ResultSummary.writeCsv(rows, csv);
    List<String> lines = Files.readAllLines(csv);
    assertTrue(lines.get(0).endsWith(",served_frames/s,frame_cache_hit_rate"), lines.get(0));
    assertTrue(lines.get(1).endsWith(",18000.25,0.6667"), lines.get(1));
    // Without a cached run the table keeps its columns.
    List<ResultSummary.Row> uncached = ResultSummary.collect(tmp).subList(1, 2);
    assertEquals(ResultSummary.COLUMNS, ResultSummary.header(uncached));
  }

  @Test
  void resultsFromSeveralFoldersAreToldApart() throws Exception {
    write(tmp.resolve("node0"), "hub_single", result("hub", "cpu", "cpu", 0, 100, 3));
    write(tmp.resolve("node1"), "hub_single", result("hub", "cpu", "cpu", 0, 110, 4));
    List<ResultSummary.Row> rows = ResultSummary.collect(tmp);
    List<Map<String, String>> table = SummaryTables.parse(ResultSummary.table(rows));
    assertEquals("dir", List.copyOf(table.get(0).keySet()).get(0));
    assertEquals(List.of("node0", "node1"), table.stream().map(r -> r.get("dir")).toList());
    assertEquals(
        List.of("100.0", "110.0"), table.stream().map(r -> r.get("frames/s/node")).toList());
    assertEquals("node1: hub/single/cpu w2 bs4", rows.get(1).label(true));
    Path csv = tmp.resolve("summary.csv");
    ResultSummary.writeCsv(rows, csv);
    assertTrue(Files.readAllLines(csv).get(2).startsWith("node1,hub,single,cpu,"));
    // Labels never run into the bars: the label column grows with the longest label.
    List<ResultSummary.Row> deep =
        rows.stream()
            .map(
                r ->
                    new ResultSummary.Row(
                        "multinode-2026-12-03-run-with-a-long-name/" + r.folder(),
                        r.cells(),
                        r.framesPerSecond(),
                        r.p99Ms(),
                        r.servedFromMemory(),
                        r.frameCache()))
            .toList();
    assertTrue(
        SummaryChart.labelColumn(deep, true) > SummaryChart.labelColumn(deep, false),
        "label column widens for folder names");
    // One folder: no dir column, labels without folders.
    List<ResultSummary.Row> one = ResultSummary.collect(tmp.resolve("node0"));
    assertEquals(ResultSummary.COLUMNS, ResultSummary.header(one));
    assertEquals("hub/single/cpu w2 bs4", one.get(0).label(ResultSummary.severalFolders(one)));
  }
}
