package org.robostream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * frames/s per node and for the job, from the results of a job's tasks (those that record a
 * launcher's task world larger than 1): summarize's totals under its table. A node's rate is the
 * sum of its tasks' frames/s/node; each task timed its own window, and the results carry no window
 * times, so the sum is exact only where the windows overlapped and an upper bound otherwise (the
 * printed header says so); the job's is the sum of its nodes'. A node is named by the result's
 * {@code node} (SLURM_NODEID or torchrun's GROUP_RANK), else its host name: never by the folder,
 * which a launcher may share. Results of a process alone are left out (there is nothing to add).
 * Stateless.
 */
public final class NodeTotals {
  /** The name the job's total has in the node column. */
  public static final String JOB = "job";

  /** One node's (or, with node {@link #JOB}, the job's) total for one configuration. */
  public record Total(String config, String node, int tasks, double framesPerSecond) {}

  private NodeTotals() {}

  /** Every configuration's node totals then its job total, configurations and nodes sorted. */
  public static List<Total> collect(Path dir) throws IOException {
    // config -> node -> the frames/s of its tasks.
    Map<String, Map<String, List<Double>>> rates = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        JsonNode r = read(p);
        if (r == null || r.path("task_world_size").asInt(1) <= 1) {
          continue;
        }
        rates
            .computeIfAbsent(config(r), c -> new TreeMap<>())
            .computeIfAbsent(node(r), n -> new ArrayList<>())
            .add(r.path("frames_per_s_node").asDouble());
      }
    }
    List<Total> totals = new ArrayList<>();
    rates.forEach(
        (config, nodes) -> {
          int tasks = 0;
          double job = 0;
          for (Map.Entry<String, List<Double>> n : nodes.entrySet()) {
            double sum = n.getValue().stream().mapToDouble(Double::doubleValue).sum();
            totals.add(new Total(config, n.getKey(), n.getValue().size(), round(sum)));
            tasks += n.getValue().size();
            job += sum;
          }
          totals.add(new Total(config, JOB, tasks, round(job)));
        });
    return totals;
  }

  /** A result JSON, or null for a file that is not one. */
  private static JsonNode read(Path p) {
    try {
      JsonNode r = ResultFiles.JSON.readTree(p.toFile());
      return r != null && r.has("frames_per_s_node") ? r : null;
    } catch (IOException e) {
      return null; // not JSON: not ours
    }
  }

  /** The configuration as the chart labels it: source/mode/decode wW bsB. */
  private static String config(JsonNode r) {
    String decode =
        DecodeLabel.of(
            r.path("video_decode_device").asText(""),
            r.path("decode_device_effective").asText(""),
            r.path("cpu_fallbacks").asLong(0));
    return r.path("source").asText("")
        + "/"
        + r.path("mode").asText("")
        + "/"
        + decode
        + " w"
        + r.path("num_workers").asText("")
        + " bs"
        + r.path("batch_size").asText("");
  }

  private static String node(JsonNode r) {
    JsonNode node = r.get("node");
    if (node != null && !node.isNull()) {
      return "node" + node.asText();
    }
    String host = r.path("hostname").asText("");
    return host.isEmpty() ? "unknown host" : host;
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  /** Indented lines (table readers take them for no row): one per total; empty without any. */
  public static String text(List<Total> totals) {
    if (totals.isEmpty()) {
      return "";
    }
    int config = totals.stream().mapToInt(t -> t.config().length()).max().orElse(0);
    int node = totals.stream().mapToInt(t -> t.node().length()).max().orElse(0);
    StringBuilder out =
        new StringBuilder(
            "  frames/s per node (the sum of its tasks' frames/s/node: exact where their timed"
                + " windows overlapped, an upper bound where they did not) and for the job:\n");
    for (Total t : totals) {
      out.append(
          String.format(
              Locale.ROOT,
              "    %-" + config + "s  %-" + node + "s  %3d task%s  %.2f%n",
              t.config(),
              t.node(),
              t.tasks(),
              t.tasks() == 1 ? " " : "s",
              t.framesPerSecond()));
    }
    return out.toString();
  }

  /** summary_nodes.csv: config, node (or job), tasks, frames_per_s. */
  public static void writeCsv(List<Total> totals, Path file) throws IOException {
    StringBuilder out = new StringBuilder("config,node,tasks,frames_per_s\n");
    for (Total t : totals) {
      out.append(ResultFiles.csvCell(t.config()))
          .append(',')
          .append(ResultFiles.csvCell(t.node()))
          .append(',')
          .append(t.tasks())
          .append(',')
          .append(t.framesPerSecond())
          .append('\n');
    }
    Files.writeString(file, out);
  }
}
