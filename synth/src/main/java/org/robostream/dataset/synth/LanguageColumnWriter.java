package org.robostream.dataset.synth;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Writes LeRobot's language columns, {@code language_persistent} and {@code language_events}, each
 * a list of message structs per row, as LeRobot's annotation pipeline writes them
 * (src/lerobot/datasets/language.py): persistent messages {@code {role, content, style, timestamp:
 * float32, camera, tool_calls: list<string>}} (tool calls as JSON text), events {@code {role,
 * content, style, camera, tool_calls}} with the tool calls as pyarrow infers them from LeRobot's
 * dicts, {@code list<struct<type, function: struct<name, arguments: struct<text>>>>}. Both are
 * declared {@link #feature()} in info.json.
 *
 * <p>What a row holds is a function of its dataset index and frame ({@code persistent}, {@code
 * events}): {@link #SYNTHETIC} is the generated datasets' ({@link SyntheticLanguage}); tests give
 * their own to write rows the loader must refuse. Immutable; {@link #fill} writes into the caller's
 * vectors.
 */
public record LanguageColumnWriter(Rows persistent, Rows events) {
  public static final String PERSISTENT = "language_persistent";
  public static final String EVENTS = "language_events";

  /** The rows of generated datasets: {@link SyntheticLanguage}. */
  public static final LanguageColumnWriter SYNTHETIC =
      new LanguageColumnWriter(SyntheticLanguage::persistent, SyntheticLanguage::events);

  private static final ArrowType UTF8 = ArrowType.Utf8.INSTANCE;

  /** What one column's row holds (null: a null row), by the row's dataset index and frame. */
  @FunctionalInterface
  public interface Rows {
    List<LanguageMessage> messages(long index, int frame);
  }

  public LanguageColumnWriter {
    if (persistent == null || events == null) {
      throw new IllegalArgumentException("both columns' rows must be given");
    }
  }

  /** Both columns, persistent first, as a data file's schema holds them. */
  public static List<Field> fields() {
    return List.of(persistentField(), eventsField());
  }

  /** The info.json feature of either column: LeRobot declares one language value per row. */
  public static Map<String, Object> feature() {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("dtype", "language");
    f.put("shape", List.of(1));
    f.put("names", null);
    return f;
  }

  /** {@code list<struct<role, content, style, timestamp: float32, camera, tool_calls>>}. */
  public static Field persistentField() {
    return messages(PERSISTENT, true, Field.nullable("item", UTF8));
  }

  /** {@code list<struct<role, content, style, camera, tool_calls: list<struct<...>>>>}. */
  public static Field eventsField() {
    Field arguments = struct("arguments", Field.nullable("text", UTF8));
    Field function = struct("function", Field.nullable("name", UTF8), arguments);
    return messages(EVENTS, false, struct("item", Field.nullable("type", UTF8), function));
  }

  /** A list of messages; only persistent ones have a timestamp. */
  private static Field messages(String column, boolean persistent, Field toolCall) {
    List<Field> fields = new ArrayList<>();
    fields.add(Field.notNullable("role", UTF8));
    fields.add(Field.nullable("content", UTF8));
    fields.add(Field.nullable("style", UTF8));
    if (persistent) {
      fields.add(
          Field.notNullable(
              "timestamp", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)));
    }
    fields.add(Field.nullable("camera", UTF8));
    fields.add(list("tool_calls", toolCall));
    return list(column, struct("item", fields.toArray(Field[]::new)));
  }

  private static Field struct(String name, Field... children) {
    return new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(children));
  }

  private static Field list(String name, Field item) {
    return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(item));
  }

  /**
   * Writes rows {@code 0..rows-1} of {@code root}'s two language columns ({@link #fields()}) from
   * its {@code index} and {@code frame_index} columns; the caller sets the row count, which sets
   * every nested level's value count from the lists' offsets.
   */
  public void fill(VectorSchemaRoot root, int rows) {
    BaseIntVector index = (BaseIntVector) root.getVector("index");
    BaseIntVector frame = (BaseIntVector) root.getVector("frame_index");
    ListVector p = (ListVector) root.getVector(PERSISTENT);
    ListVector e = (ListVector) root.getVector(EVENTS);
    for (int r = 0; r < rows; r++) {
      long i = index.getValueAsLong(r);
      int f = (int) frame.getValueAsLong(r);
      writeRow(p, r, persistent.messages(i, f), true);
      writeRow(e, r, events.messages(i, f), false);
    }
  }

  /**
   * Row {@code r} of a language list column ({@code persistent}: of {@link #persistentField()},
   * else {@link #eventsField()}): null, or the messages. The caller sets the value count.
   */
  public static void writeRow(
      ListVector list, int r, List<LanguageMessage> messages, boolean persistent) {
    if (messages == null) {
      list.setNull(r);
      return;
    }
    StructVector items = (StructVector) list.getDataVector();
    int at = list.startNewValue(r);
    for (int k = 0; k < messages.size(); k++) {
      LanguageMessage m = messages.get(k);
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
          writeToolCall(
              (StructVector) calls.getDataVector(),
              c0 + c,
              (LanguageMessage.ToolCall) given.get(c));
        }
      }
      calls.endValue(i, given.size());
    }
    list.endValue(r, messages.size());
  }

  /** {@code {type: "function", function: {name, arguments: {text}}}} at {@code i}. */
  private static void writeToolCall(StructVector call, int i, LanguageMessage.ToolCall t) {
    call.setIndexDefined(i);
    text(call, "type", i, "function");
    StructVector function = call.getChild("function", StructVector.class);
    function.setIndexDefined(i);
    text(function, "name", i, t.name());
    StructVector arguments = function.getChild("arguments", StructVector.class);
    arguments.setIndexDefined(i);
    text(arguments, "text", i, t.text());
  }

  private static void text(StructVector struct, String child, int i, String value) {
    VarCharVector v = struct.getChild(child, VarCharVector.class);
    if (value == null) {
      v.setNull(i);
    } else {
      v.setSafe(i, value.getBytes(StandardCharsets.UTF_8));
    }
  }
}
