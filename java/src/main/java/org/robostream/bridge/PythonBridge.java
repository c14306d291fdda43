package org.robostream.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.robostream.dataset.DatasetRoots;
import org.robostream.dataset.DatasetSource;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.SourceOptions;
import org.robostream.dataset.SymlinkPolicy;
import org.robostream.stream.StreamingDataset;

/**
 * What the Python package calls: {@link #open} a loader from its options, {@link #describe} an
 * opened loader's dataset, {@link #describeMetadata} a dataset's metadata without a loader, and
 * {@link #main}, which does either in a helper JVM and prints the JSON (the Python side's way to
 * read a dataset while its own process holds no JVM). Stateless.
 */
public final class PythonBridge {
  /** Largest options document read from standard input. */
  private static final int MAX_OPTIONS_BYTES = 8 << 20;

  private PythonBridge() {}

  /** A loader built from the options document (the dataset is opened and checked here). */
  public static StreamingDataset open(String optionsJson) {
    return BridgeOptions.builder(BridgeOptions.parse(optionsJson)).build();
  }

  /**
   * As {@link #open(String)}, with what the loader logged to standard error while it opened the
   * dataset (its one-time warnings) added to {@code logged} instead of printed: the Python side
   * prints what its user has not seen yet, so a dataset opened again (in each DataLoader worker,
   * after a helper JVM checked it) does not repeat its warnings. Opens are serialised while
   * standard error is diverted; a line another thread logs meanwhile is captured too and handed
   * back the same way.
   */
  public static StreamingDataset open(String optionsJson, java.util.List<String> logged) {
    synchronized (PythonBridge.class) {
      PrintStream err = System.err;
      ByteArrayOutputStream captured = new ByteArrayOutputStream();
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      try {
        return open(optionsJson);
      } finally {
        System.setErr(err);
        for (String line : captured.toString(StandardCharsets.UTF_8).split("\\R")) {
          if (!line.isEmpty()) {
            logged.add(line);
          }
        }
      }
    }
  }

  /**
   * The opened loader's dataset: its metadata ({@link MetadataJson}) and what the loader decided
   * when it opened it (the kept episodes and cameras, the data files, the shuffle buffer, the
   * warnings it gave once).
   */
  public static String describe(StreamingDataset dataset) {
    LeRobotMetadata kept = dataset.metadata();
    ObjectNode out = MetadataJson.of(kept);
    ArrayNode episodes = out.putArray("kept_episodes");
    kept.episodes().forEach(e -> episodes.add(e.index()));
    out.set("cameras", MetadataJson.strings(kept.cameras()));
    out.put("data_files", kept.episodes().stream().map(e -> e.dataFile()).distinct().count());
    out.put("shuffle_buffer_size", dataset.shuffleBufferSize());
    out.put("batches_per_epoch", dataset.batchesPerEpoch());
    out.set("warnings", MetadataJson.strings(dataset.timestamps().warnings()));
    return out.toString();
  }

  /**
   * A dataset's metadata read as LeRobot's {@code LeRobotDatasetMetadata} reads it: meta/ only, no
   * data file or video opened (a local folder), so a dataset whose files are partly absent still
   * describes. A Hub location is opened as a source (its meta/ is mirrored into the cache).
   */
  public static String describeMetadata(String optionsJson) {
    JsonNode o = BridgeOptions.parse(optionsJson);
    String location = BridgeOptions.location(o);
    JsonNode dataRoot = o.path("data_files_root");
    Path local = Path.of(location);
    LeRobotMetadata metadata;
    if (Files.isDirectory(local) && (dataRoot.isMissingNode() || dataRoot.isNull())) {
      metadata =
          LeRobotMetadata.open(
              DatasetRoots.of(local, local, SymlinkPolicy.CONFINED),
              Optional.empty(),
              Optional.empty());
    } else {
      SourceOptions options =
          SourceOptions.defaults().withEnvironment(BridgeOptions.environment(o));
      if (dataRoot.isTextual()) {
        options = options.withDataFilesRoot(dataRoot.asText());
      }
      metadata = DatasetSource.open(location, options).metadata();
    }
    return MetadataJson.of(metadata).toString();
  }

  /**
   * {@code dataset} or {@code metadata}: reads the options document from standard input and prints
   * {@link #describe} (after opening a loader, closed at once) or {@link #describeMetadata} to
   * standard output. A failure prints {@code {"error": {"classes": [...], "message": ...}}} (the
   * exception's class and superclasses, for the Python side to map to its error types) and exits
   * with 3; anything printed by logging goes to standard error.
   */
  public static void main(String[] args) throws IOException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    System.setOut(System.err); // nothing but the answer on standard output
    String options = readOptions(System.in);
    try {
      if (args.length == 1 && args[0].equals("dataset")) {
        try (StreamingDataset ds = open(options)) {
          out.println(describe(ds));
        }
      } else if (args.length == 1 && args[0].equals("metadata")) {
        out.println(describeMetadata(options));
      } else {
        throw new IllegalArgumentException("usage: PythonBridge dataset|metadata < options.json");
      }
    } catch (RuntimeException e) {
      out.println(error(e));
      out.flush();
      System.exit(3);
    }
  }

  private static String readOptions(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buffer = new byte[1 << 16];
    for (int n; (n = in.read(buffer)) > 0; ) {
      bytes.write(buffer, 0, n);
      if (bytes.size() > MAX_OPTIONS_BYTES) {
        throw new IllegalArgumentException("options larger than " + MAX_OPTIONS_BYTES + " bytes");
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /**
   * The error document for {@code e}: the classes from its own up to Throwable, and its message; of
   * the first robostream exception in its cause chain where it wraps one (as the in-process bridge
   * translates).
   */
  static String error(Throwable thrown) {
    Throwable e = thrown;
    for (Throwable c = thrown; c != null; c = c.getCause()) {
      if (c.getClass().getName().startsWith("org.robostream.")) {
        e = c;
        break;
      }
    }
    ObjectNode out = MetadataJson.JSON.createObjectNode();
    ObjectNode error = out.putObject("error");
    ArrayNode classes = error.putArray("classes");
    for (Class<?> c = e.getClass(); c != null; c = c.getSuperclass()) {
      classes.add(c.getName());
    }
    error.put("message", e.getMessage() != null ? e.getMessage() : e.getClass().getName());
    return out.toString();
  }
}
