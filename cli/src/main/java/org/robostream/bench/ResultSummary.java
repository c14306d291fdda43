package org.robostream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Collects benchmark result JSONs under a folder (recursively) into comparison rows sorted by
 * (source, mode, decode), prints them as an aligned table and writes summary.csv. Files that are
 * not result JSONs are skipped. When the results come from several folders (the multinode
 * launcher's node0/, node1/) a leading {@code dir} column names each row's folder, since rows of
 * different nodes are otherwise identical. A window served from memory (see {@link WindowFidelity})
 * is marked {@code YES} in the {@code from_memory} column and in the chart's label: its
 * frames/s/node timed the shuffle buffer, not decoding. When any result ran with a frame cache, the
 * table adds {@link #FRAME_CACHE_COLUMNS} (frames decoded or served from the cache per second, the
 * cache's hit rate) and the chart labels those rows {@code [frame cache]}: their frames/s/node are
 * not a decode rate. Rows of a Hub dataset say where the run's bytes came from ({@code
 * run_bytes_from}) and how long a warmed_bucket's warm pass took, outside the run ({@code
 * warm_pass_s}). Stateless.
 */
public final class ResultSummary {
  /** Columns of the table and of summary.csv. */
  public static final List<String> COLUMNS =
      List.of(
          "source",
          "mode",
          "decode",
          "workers",
          "bs",
          "frames/s/node",
          "first_batch_s",
          "p50_ms",
          "p95_ms",
          "p99_ms",
          "cache_hit_rate",
          "amplification",
          "baseline_ratio",
          "decoded_frames/s",
          "decoded_share",
          "from_memory",
          "run_bytes_from",
          "warm_pass_s");

  /** Columns added after {@link #COLUMNS} when any result ran with a frame cache. */
  public static final List<String> FRAME_CACHE_COLUMNS =
      List.of("served_frames/s", "frame_cache_hit_rate");

  private ResultSummary() {}

  /**
   * One result: the folder it came from (relative to the summarized folder, "" for that folder
   * itself), its cells for {@link #COLUMNS} then {@link #FRAME_CACHE_COLUMNS} (empty where missing)
   * and what the chart needs.
   */
  public record Row(
      String folder,
      List<String> cells,
      double framesPerSecond,
      double p99Ms,
      boolean servedFromMemory,
      boolean frameCache) {
    /**
     * The chart's label; with {@code withFolder} prefixed by the folder; a window served from
     * memory says so.
     */
    public String label(boolean withFolder) {
      String config =
          cells.get(0)
              + "/"
              + cells.get(1)
              + "/"
              + cells.get(2)
              + " w"
              + cells.get(3)
              + " bs"
              + cells.get(4)
              + (servedFromMemory ? " [from memory]" : "")
              + (frameCache ? " [frame cache]" : "");
      return withFolder ? (folder.isEmpty() ? "." : folder) + ": " + config : config;
    }
  }

  /** Whether any row's window was served from memory. */
  public static boolean anyFromMemory(List<Row> rows) {
    return rows.stream().anyMatch(Row::servedFromMemory);
  }

  /** Whether any row ran with a frame cache (then the table shows its columns). */
  public static boolean anyFrameCache(List<Row> rows) {
    return rows.stream().anyMatch(Row::frameCache);
  }

  /** Whether the rows come from more than one folder (then folders tell them apart). */
  public static boolean severalFolders(List<Row> rows) {
    return rows.stream().map(Row::folder).distinct().count() > 1;
  }

  public static List<Row> collect(Path dir) throws IOException {
    List<Row> rows = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return rows;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        JsonNode r;
        try {
          r = ResultFiles.JSON.readTree(p.toFile());
        } catch (IOException e) {
          continue; // not JSON: not ours
        }
        if (r == null || !r.has("frames_per_s_node")) {
          continue;
        }
        String decode =
            DecodeLabel.of(
                text(r, "video_decode_device"),
                text(r, "decode_device_effective"),
                r.path("cpu_fallbacks").asLong(0));
        List<String> cells =
            List.of(
                text(r, "source"),
                text(r, "mode"),
                decode,
                text(r, "num_workers"),
                text(r, "batch_size"),
                text(r, "frames_per_s_node"),
                text(r, "first_batch_latency_s"),
                text(r, "p50_sample_latency_ms"),
                text(r, "p95_sample_latency_ms"),
                text(r, "p99_sample_latency_ms"),
                text(r.path("video_decoder_cache"), "hit_rate"),
                text(r, "decode_amplification"),
                text(r, "baseline_ratio"),
                text(r, "decoded_frames_per_s"),
                text(r, "window_samples_decoded_share"),
                fromMemory(r.get("window_served_from_memory")),
                bytesFrom(r.path("bytes_from").path("run")),
                text(r.path("warm_pass"), "seconds"),
                text(r, "served_frames_per_s"),
                text(r.path("frame_cache"), "hit_rate"));
        Path parent = dir.relativize(p).getParent();
        rows.add(
            new Row(
                parent == null ? "" : parent.toString(),
                cells,
                r.path("frames_per_s_node").asDouble(),
                r.path("p99_sample_latency_ms").asDouble(Double.NaN),
                r.path("window_served_from_memory").asBoolean(false),
                r.path("frame_cache").isObject()));
      }
    }
    rows.sort(
        Comparator.<Row, String>comparing(x -> x.cells().get(0))
            .thenComparing(x -> x.cells().get(1))
            .thenComparing(x -> x.cells().get(2))
            .thenComparing(Row::folder));
    return rows;
  }

  /**
   * Where the run's bytes came from, the origins with any bytes joined by '+' (repository, bucket,
   * local_disk): a hub row that read a local copy shows it. Empty for a local dataset.
   */
  private static String bytesFrom(JsonNode run) {
    List<String> origins = new ArrayList<>();
    run.fields()
        .forEachRemaining(
            e -> {
              if (e.getValue().path("bytes").asLong() > 0) {
                origins.add(e.getKey());
              }
            });
    return String.join("+", origins);
  }

  /** YES, no, or empty for results written before the flag existed. */
  private static String fromMemory(JsonNode flag) {
    return flag == null || flag.isNull() ? "" : flag.asBoolean() ? "YES" : "no";
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? "" : v.asText();
  }

  /** Left-justified columns separated by two spaces, a dash rule under the header. */
  public static String table(List<Row> rows) {
    List<String> header = header(rows);
    List<List<String>> lines = rows.stream().map(r -> cells(r, rows)).toList();
    int[] width = new int[header.size()];
    for (int c = 0; c < width.length; c++) {
      width[c] = header.get(c).length();
      for (List<String> cells : lines) {
        width[c] = Math.max(width[c], cells.get(c).length());
      }
    }
    StringBuilder out = new StringBuilder();
    line(out, header, width);
    for (int c = 0; c < width.length; c++) {
      out.append("-".repeat(width[c])).append(c + 1 < width.length ? "  " : "\n");
    }
    for (List<String> cells : lines) {
      line(out, cells, width);
    }
    return out.toString();
  }

  /**
   * {@link #COLUMNS}, after a {@code dir} column when the rows come from several folders, before
   * {@link #FRAME_CACHE_COLUMNS} when any row ran with a frame cache.
   */
  public static List<String> header(List<Row> rows) {
    List<String> header = new ArrayList<>();
    if (severalFolders(rows)) {
      header.add("dir");
    }
    header.addAll(COLUMNS);
    if (anyFrameCache(rows)) {
      header.addAll(FRAME_CACHE_COLUMNS);
    }
    return header;
  }

  private static List<String> cells(Row row, List<Row> rows) {
    List<String> cells = new ArrayList<>();
    if (severalFolders(rows)) {
      cells.add(row.folder().isEmpty() ? "." : row.folder());
    }
    int shown = anyFrameCache(rows) ? row.cells().size() : COLUMNS.size();
    cells.addAll(row.cells().subList(0, shown));
    return cells;
  }

  private static void line(StringBuilder out, List<String> cells, int[] width) {
    for (int c = 0; c < width.length; c++) {
      String cell = cells.get(c);
      out.append(cell);
      if (c + 1 < width.length) {
        out.append(" ".repeat(width[c] - cell.length() + 2));
      }
    }
    out.append('\n');
  }

  public static void writeCsv(List<Row> rows, Path file) throws IOException {
    StringBuilder out = new StringBuilder(String.join(",", header(rows))).append('\n');
    for (Row r : rows) {
      out.append(String.join(",", cells(r, rows).stream().map(ResultFiles::csvCell).toList()))
          .append('\n');
    }
    Files.writeString(file, out);
  }
}
