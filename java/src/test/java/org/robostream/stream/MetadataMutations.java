package org.robostream.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.testing.MetadataEdit;
import org.robostream.testing.ParquetEdit;

/**
 * The deterministic mutations of one seed dataset that {@link MetadataMutationFuzzTest} streams:
 * info.json (values, types, templates, features, damaged text), the episodes table (v3.0 Parquet or
 * v2.1 jsonl), a data Parquet file and the tasks table. Parquet tables get, per column, value
 * changes at rows around episode boundaries (±1, huge, negative; for floats a fraction of a frame,
 * a frame, NaN, infinity), type changes, swapped values and removal; and deleted, repeated, swapped
 * and reversed rows. Not thread-safe; built once per seed.
 */
final class MetadataMutations {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Changes a copy of the seed in place. */
  @FunctionalInterface
  interface Change {
    void apply(Path root) throws Exception;
  }

  /**
   * One mutation.
   *
   * @param target which kind of file it changes: info, episodes, data or tasks
   */
  record Mutation(String seed, String target, String name, Change change) {
    @Override
    public String toString() {
      return seed + " " + target + ": " + name;
    }
  }

  private final String seedName;
  private final Path seed;
  private final LeRobotMetadata meta;
  private final List<Mutation> out = new ArrayList<>();

  private MetadataMutations(String seedName, Path seed) {
    this.seedName = seedName;
    this.seed = seed;
    this.meta = LeRobotMetadata.open(seed, Optional.empty());
  }

  static List<Mutation> of(String seedName, Path seed) throws Exception {
    MetadataMutations m = new MetadataMutations(seedName, seed);
    m.info();
    EpisodeInfo second = m.meta.episodes().get(1);
    String data = seed.relativize(second.dataFile()).toString();
    if (m.meta.info().majorVersion() == 3) {
      m.table("episodes", "meta/episodes/chunk-000/file-000.parquet");
      m.table("tasks", "meta/tasks.parquet");
    } else {
      m.episodesJsonl();
      m.tasksJsonl();
    }
    m.table("data", data);
    return Collections.unmodifiableList(m.out);
  }

  private void add(String target, String name, Change change) {
    out.add(new Mutation(seedName, target, name, change));
  }

  // ---- info.json ----------------------------------------------------------------------------

  private void info(String name, Consumer<ObjectNode> edit) {
    add("info", name, root -> MetadataEdit.info(root, edit));
  }

  private void infoText(String name, UnaryOperator<String> edit) {
    add(
        "info",
        name,
        root -> {
          Path file = root.resolve("meta/info.json");
          Files.writeString(file, edit.apply(Files.readString(file)));
        });
  }

  private void infoValues(String key, JsonNode... values) {
    for (JsonNode v : values) {
      info(key + " = " + v, n -> n.set(key, v));
    }
    info("no " + key, n -> n.remove(key));
  }

  private void info() {
    int fps = meta.info().fps();
    infoValues(
        "fps",
        NODES.numberNode(0),
        NODES.numberNode(-fps),
        NODES.numberNode(fps - 1),
        NODES.numberNode(fps * 2),
        NODES.numberNode(1001),
        NODES.numberNode(Integer.MAX_VALUE),
        NODES.numberNode((double) fps),
        NODES.numberNode(fps + 0.5),
        NODES.numberNode(29.97),
        NODES.numberNode(1e300),
        NODES.textNode("" + fps),
        NODES.nullNode(),
        NODES.booleanNode(true),
        NODES.arrayNode().add(fps));
    String version = meta.info().codebaseVersion();
    infoValues(
        "codebase_version",
        NODES.textNode(version.startsWith("v3") ? "v2.1" : "v3.0"),
        NODES.textNode(version.startsWith("v3") ? "v3.1" : "v2.0"),
        NODES.textNode("v9.0"),
        NODES.textNode(""),
        NODES.numberNode(3),
        NODES.nullNode());
    infoValues(
        "chunks_size",
        NODES.numberNode(0),
        NODES.numberNode(1),
        NODES.numberNode(-1),
        NODES.numberNode(1000.0),
        NODES.numberNode(1000.5),
        NODES.textNode("1000"));
    info("total_frames = 0", n -> n.put("total_frames", 0));
    info("total_frames = -1", n -> n.put("total_frames", -1));
    info("total_frames = 1e12", n -> n.put("total_frames", 1_000_000_000_000L));
    info("total_episodes = many", n -> n.put("total_episodes", "many"));
    templates("data_path", meta.info().dataPath().template());
    templates("video_path", meta.info().videoPath().template());
    info("video_path = data_path", n -> n.set("video_path", n.get("data_path")));
    info("data_path = video_path", n -> n.set("data_path", n.get("video_path")));
    features();
    infoText("truncated to 1 byte", t -> t.substring(0, 1));
    infoText("truncated to half", t -> t.substring(0, t.length() / 2));
    infoText("last brace missing", t -> t.substring(0, t.lastIndexOf('}')));
    infoText("object made a list", t -> "[" + t.substring(1));
    infoText("garbage before", t -> "x" + t);
    infoText("empty", t -> "");
    infoText("a token file", t -> "hf_token = hf_AbCdEfGhIjKlMnOpQrStUvWxYz\n");
    infoText("a JSON list", t -> "[1, 2, 3]");
    infoText("null", t -> "null");
    infoText("nested 5000 deep", t -> "[".repeat(5000) + "]".repeat(5000));
    infoText(
        "not UTF-8",
        t ->
            new String(
                new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '"'}, StandardCharsets.ISO_8859_1));
  }

  private void templates(String key, String template) {
    String field = template.contains("{episode_index") ? "episode_index" : "file_index";
    String padded = template.replaceFirst("\\{" + field + ":0?\\d+d}", "{" + field + ":%s}");
    List<String> variants =
        new ArrayList<>(
            List.of(
                template.replaceFirst("\\{" + field + "[^}]*}", "000"),
                String.format(padded, "040d"),
                String.format(padded, "02147483648d"),
                String.format(padded, "02147483647d"),
                String.format(padded, "d"),
                "../" + template,
                "/" + template,
                template + "{unknown}",
                template.replace("{video_key}", "cam"),
                template.replace("/", "/../")));
    for (String v : new TreeSet<>(variants)) {
      info(key + " = " + v, n -> n.put(key, v));
    }
    info(key + " = 5", n -> n.put(key, 5));
    info(key + " = null", n -> n.putNull(key));
  }

  private void features() {
    String camera = meta.info().videoKeys().get(0);
    int[] shape = meta.info().features().get(camera).shape();
    int h = shape[0];
    int w = shape[1];
    for (int[] s :
        new int[][] {
          {w, h, 3},
          {h * 2, w * 2, 3},
          {h, w, 1},
          {h, w},
          {0, w, 3},
          {-h, w, 3},
          {100_000, w, 3},
          {h, w, 3, 1}
        }) {
      ArrayNode a = NODES.arrayNode();
      for (int d : s) {
        a.add(d);
      }
      feature(camera, "shape = " + a, f -> f.set("shape", a));
    }
    feature(camera, "shape = a string", f -> f.put("shape", h + "x" + w));
    feature(camera, "dtype = image", f -> f.put("dtype", "image"));
    feature(camera, "dtype = 7", f -> f.put("dtype", 7));
    feature(camera, "no dtype", f -> f.remove("dtype"));
    info("feature " + camera + " removed", n -> ((ObjectNode) n.get("features")).remove(camera));
    info(
        "a camera without files",
        n ->
            ((ObjectNode) n.get("features"))
                .set("observation.images.extra", n.get("features").get(camera).deepCopy()));
    int d = meta.info().features().get("action").shape()[0];
    feature(
        "action", "shape = [" + (d + 1) + "]", f -> f.set("shape", NODES.arrayNode().add(d + 1)));
    feature(
        "action", "shape = [" + d + ", 1]", f -> f.set("shape", NODES.arrayNode().add(d).add(1)));
    feature(
        "action",
        "shape = [2147483647, 2]",
        f -> f.set("shape", NODES.arrayNode().add(Integer.MAX_VALUE).add(2)));
    for (String dtype : List.of("float64", "int64", "string", "bfloat16")) {
      feature("action", "dtype = " + dtype, f -> f.put("dtype", dtype));
    }
    feature("timestamp", "dtype = float64", f -> f.put("dtype", "float64"));
    feature("frame_index", "dtype = float32", f -> f.put("dtype", "float32"));
    feature("index", "dtype = string", f -> f.put("dtype", "string"));
    feature("task_index", "dtype = float32", f -> f.put("dtype", "float32"));
    for (String name :
        List.of("action", "timestamp", "frame_index", "episode_index", "index", "task_index")) {
      info("feature " + name + " removed", n -> ((ObjectNode) n.get("features")).remove(name));
    }
    info("features = []", n -> n.set("features", NODES.arrayNode()));
    info("features = {}", n -> n.set("features", NODES.objectNode()));
  }

  private void feature(String name, String what, Consumer<ObjectNode> edit) {
    info(name + " " + what, n -> edit.accept((ObjectNode) n.get("features").get(name)));
  }

  // ---- v2.1 jsonl tables --------------------------------------------------------------------

  private void lines(
      String target, String relative, String name, UnaryOperator<List<String>> edit) {
    add(
        target,
        name,
        root -> {
          Path file = root.resolve(relative);
          List<String> lines = new ArrayList<>(Files.readAllLines(file));
          Files.write(file, edit.apply(lines));
        });
  }

  private void lineOps(String target, String relative) {
    lines(target, relative, "first line deleted", l -> l.subList(1, l.size()));
    lines(target, relative, "last line deleted", l -> l.subList(0, l.size() - 1));
    lines(
        target,
        relative,
        "first line twice",
        l -> {
          l.add(1, l.get(0));
          return l;
        });
    lines(
        target,
        relative,
        "first two lines swapped",
        l -> {
          Collections.swap(l, 0, 1);
          return l;
        });
    lines(
        target,
        relative,
        "lines reversed",
        l -> {
          Collections.reverse(l);
          return l;
        });
    lines(
        target,
        relative,
        "a blank line",
        l -> {
          l.add(1, "");
          return l;
        });
    lines(
        target,
        relative,
        "a garbage line",
        l -> {
          l.add(1, "{\"episode_index\": oops}");
          return l;
        });
    lines(
        target,
        relative,
        "last line cut",
        l -> {
          String last = l.remove(l.size() - 1);
          l.add(last.substring(0, last.length() / 2));
          return l;
        });
  }

  private void episodesJsonl() {
    String[] values = {
      "1", "-1", "0", "99", "2147483648", "1e300", "10.0", "10.5", "\"10\"", "null", "[10]"
    };
    int k = 0;
    for (String field : List.of("episode_index", "length")) {
      for (String v : values) {
        int episode = k++ % meta.episodes().size();
        String json =
            field.equals("length") && v.equals("1")
                ? "" + (meta.episodes().get(episode).length() + 1)
                : v;
        add(
            "episodes",
            "episode " + episode + " " + field + " = " + json,
            root -> MetadataEdit.episodeField(root, episode, field, json));
      }
    }
    add(
        "episodes",
        "episode 1 tasks = []",
        root -> editLine(root, 1, l -> l.replaceFirst("\"tasks\":\\[[^]]*]", "\"tasks\":[]")));
    add(
        "episodes",
        "episode 1 tasks = 5",
        root -> editLine(root, 1, l -> l.replaceFirst("\"tasks\":\\[[^]]*]", "\"tasks\":5")));
    add(
        "episodes",
        "episode 2 without length",
        root -> editLine(root, 2, l -> l.replaceFirst(",\"length\":\\d+", "")));
    lineOps("episodes", "meta/episodes.jsonl");
    lines(
        "episodes",
        "meta/episodes_stats.jsonl",
        "episodes_stats.jsonl cut",
        l -> {
          l.set(0, l.get(0).substring(0, 20));
          return l;
        });
  }

  private static void editLine(Path root, int episode, UnaryOperator<String> edit)
      throws Exception {
    Path file = root.resolve("meta/episodes.jsonl");
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    lines.set(episode, edit.apply(lines.get(episode)));
    Files.write(file, lines);
  }

  private void tasksJsonl() {
    String file = "meta/tasks.jsonl";
    for (String v : new String[] {"\"0\"", "5", "-1", "0.5", "null"}) {
      lines(
          "tasks",
          file,
          "task_index of the first line = " + v,
          l -> {
            l.set(0, l.get(0).replaceFirst("\"task_index\":\\d+", "\"task_index\":" + v));
            return l;
          });
    }
    lineOps("tasks", file);
  }

  // ---- Parquet tables -----------------------------------------------------------------------

  private void parquet(String target, String relative, String name, Consumer<ParquetEdit> edit) {
    add(
        target,
        relative.substring(relative.lastIndexOf('/') + 1) + ": " + name,
        root -> ParquetEdit.rewrite(root.resolve(relative), edit));
  }

  private void table(String target, String relative) throws Exception {
    List<String> columns;
    List<ArrowType> types = new ArrayList<>();
    List<Integer> rows;
    int n;
    try (ParquetEdit t = ParquetEdit.open(seed.resolve(relative))) {
      columns = t.columns();
      columns.forEach(c -> types.add(t.type(c)));
      n = t.rows();
      rows = interestingRows(t);
    }
    double frame = 1.0 / meta.info().fps();
    int k = 0;
    for (int c = 0; c < columns.size(); c++) {
      String col = columns.get(c);
      ArrowType type = types.get(c);
      if (type instanceof ArrowType.Int) {
        for (String op : List.of("+1", "-1", "huge", "negative")) {
          int row = rows.get(k++ % rows.size());
          parquet(
              target,
              relative,
              col + "[" + row + "] " + op,
              e -> e.set(col, row, changedWhole(e.longAt(col, row), op)));
        }
      } else if (type instanceof ArrowType.FloatingPoint) {
        for (String op :
            List.of("+0.3 frame", "+0.7 frame", "-1 frame", "NaN", "infinite", "x10")) {
          int row = rows.get(k++ % rows.size());
          parquet(
              target,
              relative,
              col + "[" + row + "] " + op,
              e -> e.set(col, row, changedReal(e.doubleAt(col, row), op, frame)));
        }
      }
      if (type instanceof ArrowType.Int || type instanceof ArrowType.FloatingPoint) {
        for (ArrowType to :
            List.of(
                ParquetEdit.FLOAT64,
                ParquetEdit.UTF8,
                type instanceof ArrowType.Int ? ParquetEdit.INT32 : ParquetEdit.FLOAT32)) {
          if (!to.equals(type)) {
            parquet(target, relative, col + " as " + to, e -> e.retype(col, to));
          }
        }
        int a = rows.get(k % rows.size());
        int b = a == n - 1 ? 0 : a + 1;
        parquet(
            target,
            relative,
            col + " rows " + a + " and " + b + " swapped",
            e -> {
              double va = e.doubleAt(col, a);
              e.set(col, a, e.doubleAt(col, b)).set(col, b, va);
            });
      }
      parquet(target, relative, col + " removed", e -> e.drop(col));
    }
    for (int row : rows) {
      parquet(target, relative, "row " + row + " deleted", e -> e.keepRows(without(n, row)));
    }
    parquet(target, relative, "row 0 twice", e -> e.keepRows(repeated(n, 0)));
    parquet(target, relative, "last row twice", e -> e.keepRows(repeated(n, n - 1)));
    parquet(target, relative, "rows 0 and 1 swapped", e -> e.keepRows(swapped(n, 0, 1)));
    int boundary = rows.size() > 2 ? rows.get(2) : n - 1;
    parquet(
        target,
        relative,
        "rows " + (boundary - 1) + " and " + boundary + " swapped",
        e -> e.keepRows(swapped(n, boundary - 1, boundary)));
    parquet(target, relative, "rows reversed", e -> e.keepRows(reversed(n)));
    parquet(target, relative, "only the first row", e -> e.keepRows(0));
  }

  /** First and last row, and the rows on both sides of each change of episode. */
  private static List<Integer> interestingRows(ParquetEdit t) {
    TreeSet<Integer> rows = new TreeSet<>(List.of(0, t.rows() - 1));
    if (t.columns().contains("episode_index") && t.type("episode_index") instanceof ArrowType.Int) {
      for (int r = 1; r < t.rows(); r++) {
        if (t.longAt("episode_index", r) != t.longAt("episode_index", r - 1)) {
          rows.add(r - 1);
          rows.add(r);
        }
      }
    }
    return new ArrayList<>(rows);
  }

  private static double changedWhole(long value, String op) {
    return switch (op) {
      case "+1" -> value + 1;
      case "-1" -> value - 1;
      case "huge" -> 1L << 31;
      default -> -7;
    };
  }

  private static double changedReal(double value, String op, double frame) {
    return switch (op) {
      case "+0.3 frame" -> value + 0.3 * frame;
      case "+0.7 frame" -> value + 0.7 * frame;
      case "-1 frame" -> value - frame;
      case "NaN" -> Double.NaN;
      case "infinite" -> Double.POSITIVE_INFINITY;
      default -> value * 10 + 1;
    };
  }

  private static int[] without(int n, int row) {
    return java.util.stream.IntStream.range(0, n).filter(r -> r != row).toArray();
  }

  private static int[] repeated(int n, int row) {
    return java.util.stream.IntStream.rangeClosed(0, n).map(r -> r <= row ? r : r - 1).toArray();
  }

  private static int[] swapped(int n, int a, int b) {
    int[] order = java.util.stream.IntStream.range(0, n).toArray();
    order[a] = b;
    order[b] = a;
    return order;
  }

  private static int[] reversed(int n) {
    return java.util.stream.IntStream.range(0, n).map(r -> n - 1 - r).toArray();
  }
}
