package org.robostream.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.BaseListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One Arrow value as JSON text, the way Python's {@code json.loads} gives back what pyarrow's
 * {@code to_pylist} (and so LeRobot's loading) yields for it: a struct is an object with its field
 * names, a list an array, a map an array of {@code [key, value]} pairs, null {@code null}, strings
 * JSON strings, integers and floats numbers (a float32 written as the double it widens to, so it
 * reads back as the same Python float; NaN and infinities as Python's {@code json} writes them),
 * bool {@code true}/{@code false}. A string of the {@code arrow.json} extension type is JSON
 * already and is embedded as the value it holds (text that is not JSON stays a string). Binary,
 * temporal and union values have no JSON form and are refused when the dataset is opened ({@link
 * #unsupported}). Stateless.
 */
public final class JsonCells {
  /** The extension name of Arrow's canonical JSON type (a string column holding JSON text). */
  static final String JSON_EXTENSION = "arrow.json";

  private static final String EXTENSION_KEY = "ARROW:extension:name";
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonCells() {}

  /** The text grew past its bound while it was written. */
  public static final class TooLarge extends RuntimeException {
    private TooLarge() {
      super(null, null, false, false);
    }
  }

  /**
   * Value {@code index} of {@code vector} as JSON text of at most {@code maxBytes} UTF-8 bytes.
   *
   * @throws TooLarge when the text would be longer: writing stops as soon as that is certain
   */
  public static String write(ValueVector vector, int index, int maxBytes) {
    StringBuilder out = new StringBuilder();
    new Writer(out, maxBytes).value(vector, index);
    String text = out.toString();
    if (text.length() > maxBytes / 3 && utf8Length(text) > maxBytes) {
      throw new TooLarge();
    }
    return text;
  }

  /**
   * Where in {@code field} a value has no JSON form ({@code "language_events[].blob: Binary"}), or
   * null when every value it can hold can be written.
   */
  public static String unsupported(Field field) {
    return unsupported(field, field.getName());
  }

  private static String unsupported(Field field, String path) {
    ArrowType type = field.getType();
    boolean leaf =
        type instanceof ArrowType.Utf8
            || type instanceof ArrowType.LargeUtf8
            || type instanceof ArrowType.Int
            || type instanceof ArrowType.FloatingPoint
            || type instanceof ArrowType.Bool
            || type instanceof ArrowType.Decimal
            || type instanceof ArrowType.Null;
    if (leaf && field.getDictionary() == null) {
      return null;
    }
    boolean nested =
        type instanceof ArrowType.Struct
            || type instanceof ArrowType.List
            || type instanceof ArrowType.LargeList
            || type instanceof ArrowType.FixedSizeList
            || type instanceof ArrowType.Map;
    if (!nested || field.getDictionary() != null) {
      return path + ": " + type;
    }
    boolean struct = type instanceof ArrowType.Struct;
    for (Field child : field.getChildren()) {
      String at =
          type instanceof ArrowType.Map
              ? path + "{}"
              : struct ? path + "." + child.getName() : path + "[]";
      String problem =
          type instanceof ArrowType.Map ? unsupportedEntries(child, at) : unsupported(child, at);
      if (problem != null) {
        return problem;
      }
    }
    return null;
  }

  /** A map's one child is the struct of its entries: key and value. */
  private static String unsupportedEntries(Field entries, String path) {
    for (Field child : entries.getChildren()) {
      String problem = unsupported(child, path + "." + child.getName());
      if (problem != null) {
        return problem;
      }
    }
    return null;
  }

  /** UTF-8 bytes of {@code s}, counted without encoding it. */
  static int utf8Length(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /** Writes values into one text, stopping once it is longer than its bound can hold. */
  private static final class Writer {
    private final StringBuilder out;
    private final int maxBytes;

    Writer(StringBuilder out, int maxBytes) {
      this.out = out;
      this.maxBytes = maxBytes;
    }

    void value(ValueVector v, int i) {
      // Every char is at least one UTF-8 byte: past the bound in chars is past it in bytes.
      if (out.length() > maxBytes) {
        throw new TooLarge();
      }
      if (v.isNull(i)) {
        out.append("null");
      } else if (v instanceof StructVector s) {
        object(s, i);
      } else if (v instanceof MapVector m) {
        pairs(m, i);
      } else if (v instanceof BaseListVector l) {
        array(l, i);
      } else if (v instanceof VarCharVector s) {
        text(new String(s.get(i), StandardCharsets.UTF_8), s.getField());
      } else if (v instanceof LargeVarCharVector s) {
        text(new String(s.get(i), StandardCharsets.UTF_8), s.getField());
      } else if (v instanceof BitVector b) {
        out.append(b.get(i) != 0 ? "true" : "false");
      } else if (v instanceof UInt8Vector u) {
        out.append(Long.toUnsignedString(u.get(i)));
      } else if (v instanceof BaseIntVector n) {
        out.append(n.getValueAsLong(i));
      } else if (v instanceof FloatingPointVector f) {
        number(f.getValueAsDouble(i));
      } else if (v instanceof DecimalVector d) {
        out.append(d.getObject(i).toPlainString());
      } else if (v instanceof Decimal256Vector d) {
        out.append(d.getObject(i).toPlainString());
      } else if (v instanceof NullVector) {
        out.append("null");
      } else {
        // unsupported() refused the column when the dataset was opened
        throw new IllegalArgumentException(
            v.getField().getName() + ": " + v.getField().getType() + " has no JSON form");
      }
    }

    private void object(StructVector s, int i) {
      out.append('{');
      List<Field> fields = s.getField().getChildren();
      for (int c = 0; c < fields.size(); c++) {
        if (c > 0) {
          out.append(',');
        }
        string(fields.get(c).getName());
        out.append(':');
        value(s.getChildByOrdinal(c), i);
      }
      out.append('}');
    }

    private void array(BaseListVector l, int i) {
      ValueVector items = l.getChildrenFromFields().get(0);
      int from = l.getElementStartIndex(i);
      int to = l.getElementEndIndex(i);
      out.append('[');
      for (int j = from; j < to; j++) {
        if (j > from) {
          out.append(',');
        }
        value(items, j);
      }
      out.append(']');
    }

    /** A map as pyarrow gives it, a list of (key, value) pairs: {@code [[k, v], ...]}. */
    private void pairs(MapVector m, int i) {
      StructVector entries = (StructVector) m.getDataVector();
      int from = m.getElementStartIndex(i);
      int to = m.getElementEndIndex(i);
      out.append('[');
      for (int j = from; j < to; j++) {
        if (j > from) {
          out.append(',');
        }
        out.append('[');
        value(entries.getChildByOrdinal(0), j);
        out.append(',');
        value(entries.getChildByOrdinal(1), j);
        out.append(']');
      }
      out.append(']');
    }

    /** A string value: embedded as JSON when its field is Arrow's JSON type and it is JSON. */
    private void text(String s, Field field) {
      if (JSON_EXTENSION.equals(field.getMetadata().get(EXTENSION_KEY))) {
        try {
          JsonNode parsed = JSON.readTree(s);
          if (parsed != null && !parsed.isMissingNode()) {
            out.append(JSON.writeValueAsString(parsed));
            return;
          }
        } catch (JsonProcessingException notJson) {
          // kept as the string it is
        }
      }
      string(s);
    }

    private void number(double d) {
      if (Double.isNaN(d)) {
        out.append("NaN");
      } else if (Double.isInfinite(d)) {
        out.append(d > 0 ? "Infinity" : "-Infinity");
      } else {
        out.append(d);
      }
    }

    private void string(String s) {
      out.append('"');
      for (int k = 0; k < s.length(); k++) {
        char c = s.charAt(k);
        switch (c) {
          case '"' -> out.append("\\\"");
          case '\\' -> out.append("\\\\");
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          case '\b' -> out.append("\\b");
          case '\f' -> out.append("\\f");
          default -> {
            if (c < 0x20) {
              out.append(String.format("\\u%04x", (int) c));
            } else {
              out.append(c);
            }
          }
        }
      }
      out.append('"');
    }
  }
}
