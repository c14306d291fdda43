package org.robostream.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.robostream.dataset.ParquetFrames;
import org.robostream.dataset.synth.ParquetTableWriter;

/**
 * LeRobot's language columns for test datasets: {@code language_persistent} and {@code
 * language_events}, each a list of message structs per row, as LeRobot's annotation pipeline writes
 * them (src/lerobot/datasets/language.py): persistent messages {@code {role, content, style,
 * timestamp: float32, camera, tool_calls: list<string>}} (tool calls as JSON text), events {@code
 * {role, content, style, camera, tool_calls}} with the tool calls as pyarrow infers them from
 * LeRobot's dicts, {@code list<struct<type, function: struct<name, arguments: struct<text>>>>}.
 *
 * <p>What a row holds is a function of its {@code index} and frame ({@link #persistent}, {@link
 * #events}): rows from {@link #VARIED_FROM} on hold null rows, empty lists, several messages, null
 * fields, nested tool calls, escapes and non-ASCII text. Rows before it hold exactly one message in
 * each column: the data-file check at open (dataset.DataFileRows, another engineer's) compares the
 * first 64 rows of a list column with the declared shape [1]. Stateless.
 */
public final class LanguageColumns {
  public static final String PERSISTENT = "language_persistent";
  public static final String EVENTS = "language_events";

  /** Rows (dataset index) from here on vary freely. */
  public static final long VARIED_FROM = 64;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ArrowType UTF8 = ArrowType.Utf8.INSTANCE;

  private LanguageColumns() {}

  /** A tool call as the events column stores it: a function name and its text argument. */
  public record ToolCall(String name, String text) {}

  /**
   * One message. {@code toolCallsJson}: persistent tool calls (JSON texts), {@code toolCalls}:
   * events' (structs); null: a null list.
   */
  public record Message(
      String role,
      String content,
      String style,
      float timestamp,
      String camera,
      List<String> toolCallsJson,
      List<ToolCall> toolCalls) {}

  /** A v3.0 dataset: 6 episodes of 24 frames at 30 fps in one data file, one 64x64 camera. */
  public static Path baseDataset() {
    return Fixtures.dataset(
        "language-base-v30",
        new org.robostream.dataset.synth.SyntheticDatasetSpec(
            Path.of("unused"),
            6,
            24,
            0.0,
            1,
            64,
            64,
            30,
            org.robostream.dataset.synth.VideoCodecChoice.AV1,
            2,
            -1,
            org.robostream.dataset.synth.SyntheticDatasetSpec.Layout.V30,
            100,
            200,
            org.robostream.dataset.synth.SyntheticDatasetSpec.Content.PATTERN,
            2,
            2));
  }

  /** {@link #baseDataset} with both language columns in its data file and info.json. */
  public static Path dataset() {
    return Fixtures.derivedDataset(
        "language-v30", baseDataset(), root -> addTo(root, LanguageColumns::persistent));
  }

  /** What a row's {@code language_persistent} holds, by a function of the row. */
  @FunctionalInterface
  public interface Rows {
    List<Message> persistent(long index, int frame);
  }

  /** Adds both columns to every data file of {@code root} and declares them in info.json. */
  public static void addTo(Path root, Rows persistent) throws IOException {
    try (Stream<Path> files = Files.walk(root.resolve("data"))) {
      for (Path file : files.filter(p -> p.toString().endsWith(".parquet")).toList()) {
        addToFile(file, persistent);
      }
    }
    MetadataEdit.info(
        root,
        info -> {
          ObjectNode features = (ObjectNode) info.get("features");
          for (String name : List.of(PERSISTENT, EVENTS)) {
            ObjectNode f = features.putObject(name);
            f.put("dtype", "language");
            f.putArray("shape").add(1);
            f.putNull("names");
          }
        });
  }

  private static void addToFile(Path file, Rows persistent) throws IOException {
    try (BufferAllocator allocator = new RootAllocator()) {
      List<String> names = ParquetFrames.fileColumns(allocator, file);
      try (VectorSchemaRoot read = ParquetFrames.read(allocator, file, names)) {
        int rows = read.getRowCount();
        BaseIntVector index = (BaseIntVector) read.getVector("index");
        BaseIntVector frame = (BaseIntVector) read.getVector("frame_index");
        List<FieldVector> vectors = new ArrayList<>();
        for (FieldVector v : read.getFieldVectors()) {
          vectors.add(copy(v, allocator));
        }
        ListVector p = (ListVector) persistentField().createVector(allocator);
        ListVector e = (ListVector) eventsField().createVector(allocator);
        vectors.add(p);
        vectors.add(e);
        for (int r = 0; r < rows; r++) {
          long i = index.getValueAsLong(r);
          int f = (int) frame.getValueAsLong(r);
          writeRow(p, r, persistent.persistent(i, f), true);
          writeRow(e, r, events(i, f), false);
        }
        finish(p, rows);
        finish(e, rows);
        try (VectorSchemaRoot out = new VectorSchemaRoot(vectors)) {
          out.setRowCount(rows);
          ParquetTableWriter.write(allocator, out.getSchema(), List.of(out), file);
        }
      }
    }
  }

  private static FieldVector copy(FieldVector from, BufferAllocator allocator) {
    FieldVector to = from.getField().createVector(allocator);
    to.allocateNew();
    for (int r = 0; r < from.getValueCount(); r++) {
      to.copyFromSafe(r, r, from);
    }
    to.setValueCount(from.getValueCount());
    return to;
  }

  /** {@code list<struct<role, content, style, timestamp: float32, camera, tool_calls>>}. */
  public static Field persistentField() {
    return list(
        PERSISTENT,
        new Field(
            "item",
            FieldType.nullable(ArrowType.Struct.INSTANCE),
            List.of(
                Field.notNullable("role", UTF8),
                Field.nullable("content", UTF8),
                Field.nullable("style", UTF8),
                Field.notNullable(
                    "timestamp", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
                Field.nullable("camera", UTF8),
                list("tool_calls", Field.nullable("item", UTF8)))));
  }

  /** {@code list<struct<role, content, style, camera, tool_calls: list<struct<...>>>>}. */
  public static Field eventsField() {
    Field arguments =
        new Field(
            "arguments",
            FieldType.nullable(ArrowType.Struct.INSTANCE),
            List.of(Field.nullable("text", UTF8)));
    Field function =
        new Field(
            "function",
            FieldType.nullable(ArrowType.Struct.INSTANCE),
            List.of(Field.nullable("name", UTF8), arguments));
    Field call =
        new Field(
            "item",
            FieldType.nullable(ArrowType.Struct.INSTANCE),
            List.of(Field.nullable("type", UTF8), function));
    return list(
        EVENTS,
        new Field(
            "item",
            FieldType.nullable(ArrowType.Struct.INSTANCE),
            List.of(
                Field.notNullable("role", UTF8),
                Field.nullable("content", UTF8),
                Field.nullable("style", UTF8),
                Field.nullable("camera", UTF8),
                list("tool_calls", call))));
  }

  private static Field list(String name, Field item) {
    return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
  }

  /** Row {@code r} of a language list column: null, or the messages. */
  public static void writeRow(ListVector list, int r, List<Message> messages, boolean persistent) {
    if (messages == null) {
      list.setNull(r);
      return;
    }
    StructVector items = (StructVector) list.getDataVector();
    int at = list.startNewValue(r);
    for (int k = 0; k < messages.size(); k++) {
      Message m = messages.get(k);
      int i = at + k;
      items.setIndexDefined(i);
      text(items, "role", i, m.role());
      text(items, "content", i, m.content());
      text(items, "style", i, m.style());
      if (persistent) {
        items.getChild("timestamp", Float4Vector.class).setSafe(i, m.timestamp());
      }
      text(items, "camera", i, m.camera());
      ListVector calls = items.getChild("tool_calls", ListVector.class);
      List<?> given = persistent ? m.toolCallsJson() : m.toolCalls();
      if (given == null) {
        calls.setNull(i);
        continue;
      }
      int c0 = calls.startNewValue(i);
      for (int c = 0; c < given.size(); c++) {
        if (persistent) {
          ((VarCharVector) calls.getDataVector())
              .setSafe(c0 + c, ((String) given.get(c)).getBytes(StandardCharsets.UTF_8));
        } else {
          ToolCall t = (ToolCall) given.get(c);
          StructVector call = (StructVector) calls.getDataVector();
          call.setIndexDefined(c0 + c);
          text(call, "type", c0 + c, "function");
          StructVector function = call.getChild("function", StructVector.class);
          function.setIndexDefined(c0 + c);
          text(function, "name", c0 + c, t.name());
          StructVector arguments = function.getChild("arguments", StructVector.class);
          arguments.setIndexDefined(c0 + c);
          text(arguments, "text", c0 + c, t.text());
        }
      }
      calls.endValue(i, given.size());
    }
    list.endValue(r, messages.size());
  }

  private static void text(StructVector struct, String child, int i, String value) {
    VarCharVector v = struct.getChild(child, VarCharVector.class);
    if (value == null) {
      v.setNull(i);
    } else {
      v.setSafe(i, value.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Sets every level's value count from the list's offsets. */
  public static void finish(ListVector list, int rows) {
    list.setValueCount(rows);
  }

  /** The persistent messages of the row with dataset index {@code index} and frame {@code f}. */
  public static List<Message> persistent(long index, int f) {
    float t = f / 30f + 0.1f; // not a float a decimal writes exactly: read back as its double
    Message subtask =
        new Message("assistant", "reach for cup " + f, "subtask", t, null, null, null);
    if (index < VARIED_FROM) {
      return List.of(subtask);
    }
    return switch ((int) (index % 6)) {
      case 0 -> null;
      case 1 ->
          List.of(
              subtask,
              new Message(
                  "assistant",
                  null,
                  "plan",
                  0f,
                  null,
                  List.of("{\"name\":\"say\",\"arguments\":{\"text\":\"hi \\\"there\\\"\"}}"),
                  null));
      case 2 ->
          List.of(
              new Message(
                  "user",
                  "line1\nline2\t\"q\" \\ é 漢字 🤖 \u0001 end",
                  "memory",
                  -1.5f,
                  null,
                  null,
                  null));
      case 3 -> List.of();
      case 4 -> List.of(new Message("assistant", "x", "motion", t, null, List.of(), null));
      default -> List.of(subtask, subtask, subtask);
    };
  }

  /** The events of the row with dataset index {@code index} and frame {@code f}. */
  public static List<Message> events(long index, int f) {
    Message vqa =
        new Message("user", "what is visible? ✓", "vqa", 0f, "observation.images.top", null, null);
    if (index < VARIED_FROM) {
      return List.of(vqa);
    }
    return switch ((int) (index % 6)) {
      case 2 ->
          List.of(
              new Message(
                  "assistant",
                  null,
                  null,
                  0f,
                  null,
                  null,
                  List.of(new ToolCall("say", "héllo 🤖 frame " + f))));
      case 3 -> null;
      case 4 ->
          List.of(
              vqa,
              new Message(
                  "assistant",
                  "two calls",
                  null,
                  0f,
                  null,
                  null,
                  List.of(new ToolCall("say", "a"), new ToolCall("say", null))));
      default -> List.of();
    };
  }

  /** What Python's {@code json.loads} should give for {@code messages}, as a JSON tree. */
  public static JsonNode expected(List<Message> messages, boolean persistent) {
    if (messages == null) {
      return NODES.nullNode();
    }
    ArrayNode out = NODES.arrayNode();
    for (Message m : messages) {
      ObjectNode o = out.addObject();
      o.put("role", m.role());
      o.put("content", m.content());
      o.put("style", m.style());
      if (persistent) {
        o.put("timestamp", (double) m.timestamp());
      }
      o.put("camera", m.camera());
      List<?> calls = persistent ? m.toolCallsJson() : m.toolCalls();
      if (calls == null) {
        o.putNull("tool_calls");
        continue;
      }
      ArrayNode a = o.putArray("tool_calls");
      for (Object c : calls) {
        if (persistent) {
          a.add((String) c);
        } else {
          ToolCall t = (ToolCall) c;
          ObjectNode call = a.addObject();
          call.put("type", "function");
          ObjectNode function = call.putObject("function");
          function.put("name", t.name());
          function.putObject("arguments").put("text", t.text());
        }
      }
    }
    return out;
  }
}
