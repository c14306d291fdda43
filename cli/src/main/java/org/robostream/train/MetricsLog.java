package org.robostream.train;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The training metrics next to the checkpoints: {@code <output>/metrics/rank<r>.jsonl}, one JSON
 * object per logging window (appended, so a resumed run continues the file; each line is written
 * whole), and {@code rank<r>-summary.json} at the end (the run without its first window; written
 * under a temporary name and moved into place). Not thread-safe: the training loop owns it.
 */
public final class MetricsLog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Path lines;
  private final Path summary;

  public MetricsLog(Path outputDir, int rank) throws IOException {
    Path dir = outputDir.resolve("metrics");
    Files.createDirectories(dir);
    this.lines = dir.resolve("rank" + rank + ".jsonl");
    this.summary = dir.resolve("rank" + rank + "-summary.json");
  }

  public Path linesFile() {
    return lines;
  }

  public Path summaryFile() {
    return summary;
  }

  /** Appends one window. */
  public void append(TrainingMeter.Window w) throws IOException {
    Files.writeString(
        lines,
        JSON.writeValueAsString(node(w)) + "\n",
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND,
        java.nio.file.LinkOption.NOFOLLOW_LINKS);
  }

  /** Writes the run's summary: {@code steady} (may be null: the run had one window) + context. */
  public void summarize(TrainingMeter.Window steady, ObjectNode context) throws IOException {
    ObjectNode root = context.deepCopy();
    root.set("steady_state", steady == null ? JSON.nullNode() : node(steady));
    // A new file of a random name (O_EXCL): never through a link someone put there.
    Path tmp = Files.createTempFile(summary.getParent(), "." + summary.getFileName() + ".", ".tmp");
    try {
      Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
      Files.move(tmp, summary, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  public static ObjectNode newContext() {
    return JSON.createObjectNode();
  }

  private static ObjectNode node(TrainingMeter.Window w) {
    ObjectNode n = JSON.createObjectNode();
    n.put("step", w.step());
    n.put("epoch", w.epoch());
    n.put("seconds", w.seconds());
    n.put("samples", w.samples());
    n.put("samples_per_s", w.samplesPerSecond());
    n.put("samples_per_s_total", w.samplesPerSecondTotal());
    n.put("data_wait_fraction", w.dataWaitFraction());
    n.put("model_step_ms", w.modelStepMs());
    n.put("model_steps", w.modelSteps());
    n.put("all_reduce_ms", w.allReduceMs());
    n.put("all_reduce_fraction", w.allReduceFraction());
    if (!Double.isNaN(w.loss())) {
      n.put("loss", w.loss());
    }
    return n;
  }
}
