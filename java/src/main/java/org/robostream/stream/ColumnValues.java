package org.robostream.stream;

import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.JsonCells;

/**
 * One declared column of one episode as a flat primitive array ({@code width} values per row),
 * taken out of the data file's Arrow vectors so windows can gather rows cheaply, in the declared
 * type: a column stored in another type of the same kind (float64 declared float32, int32 declared
 * int64, bool declared as a number) is cast while copied, as LeRobot casts on read ({@code
 * dataset.FeatureColumns} refused the others when the dataset was opened). A language column, or
 * another column of structs and lists, is one JSON text per row ({@link #json}). Immutable after
 * construction.
 */
final class ColumnValues {
  /** Element types a data column can have. */
  enum Kind {
    FLOAT32,
    FLOAT64,
    INT64,
    BOOL,
    STRING
  }

  final String name;
  final Kind kind;
  final int width;
  final boolean scalar; // shape (1,) stored as a plain column
  final float[] f32;
  final double[] f64;
  final long[] i64;
  final boolean[] bool;
  final String[] str;

  private ColumnValues(String name, Kind kind, int width, boolean scalar, int rows) {
    this.name = name;
    this.kind = kind;
    this.width = width;
    this.scalar = scalar;
    int n = rows * width;
    f32 = kind == Kind.FLOAT32 ? new float[n] : null;
    f64 = kind == Kind.FLOAT64 ? new double[n] : null;
    i64 = kind == Kind.INT64 ? new long[n] : null;
    bool = kind == Kind.BOOL ? new boolean[n] : null;
    str = kind == Kind.STRING ? new String[n] : null;
  }

  /**
   * The kind a declared dtype is delivered as; null for a dtype robostream does not know (the
   * stored kind is kept).
   */
  static Kind declared(String dtype) {
    return switch (dtype) {
      case "float32" -> Kind.FLOAT32;
      case "float64" -> Kind.FLOAT64;
      case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" -> Kind.INT64;
      case "bool" -> Kind.BOOL;
      case "string" -> Kind.STRING;
      default -> null;
    };
  }

  /**
   * The most UTF-8 bytes of JSON text one row of a language (or other nested) column may take: a
   * bound on what one sample carries, far above what annotations hold (LeRobot's language rows are
   * a few messages).
   */
  static final int MAX_JSON_ROW_BYTES = 1 << 20;

  /**
   * Rows [from, from + rows) of {@code vector}, a column delivered as JSON text ({@code
   * FeatureColumns.deliveredAsJson}), one text per row ({@link JsonCells}); a row equal to the one
   * before shares its string (LeRobot repeats an episode's persistent messages on every row).
   *
   * @throws DatasetException.Unsupported naming the file, episode, row and column when a row's text
   *     would pass {@link #MAX_JSON_ROW_BYTES}
   */
  static ColumnValues json(FieldVector vector, int from, int rows, String file, int episode) {
    ColumnValues c = new ColumnValues(vector.getName(), Kind.STRING, 1, true, rows);
    for (int r = 0; r < rows; r++) {
      String text;
      try {
        text = JsonCells.write(vector, from + r, MAX_JSON_ROW_BYTES);
      } catch (JsonCells.TooLarge e) {
        throw new DatasetException.Unsupported(
            file,
            "episode "
                + episode
                + " frame "
                + r
                + " (row "
                + (from + r)
                + " of the file): column "
                + vector.getName()
                + " is more than "
                + MAX_JSON_ROW_BYTES
                + " bytes (1 MiB) as JSON text, the most robostream delivers for one row of a"
                + " language or nested column");
      }
      c.str[r] = r > 0 && text.equals(c.str[r - 1]) ? c.str[r - 1] : text;
    }
    return c;
  }

  /** Copies rows [from, from + rows) of {@code vector} in its stored kind. */
  static ColumnValues extract(FieldVector vector, int from, int rows, String file) {
    return extract(vector, from, rows, file, null);
  }

  /**
   * Copies rows [from, from + rows) of {@code vector} as {@code target} (null: the stored kind),
   * casting a float, integer or bool column to a float or integer one.
   */
  static ColumnValues extract(FieldVector vector, int from, int rows, String file, Kind target) {
    ValueVector items = vector;
    int width = 1;
    boolean scalar = true;
    if (vector instanceof FixedSizeListVector f) {
      items = f.getDataVector();
      width = f.getListSize();
      scalar = false;
    } else if (vector instanceof ListVector l) {
      items = l.getDataVector();
      scalar = false;
      width = rows == 0 ? 0 : l.getElementEndIndex(from) - l.getElementStartIndex(from);
      for (int r = from; r < from + rows; r++) {
        if (l.getElementEndIndex(r) - l.getElementStartIndex(r) != width) {
          throw new DatasetException.BadMetadata(
              file,
              "column "
                  + vector.getName()
                  + " has rows of different lengths ("
                  + width
                  + " and "
                  + (l.getElementEndIndex(r) - l.getElementStartIndex(r))
                  + ")");
        }
      }
    }
    Kind stored = kindOf(items, vector.getName(), file);
    Kind kind = target == null ? stored : target;
    if (kind != stored && !castable(stored, kind)) {
      throw new DatasetException.BadMetadata(
          file, "column " + vector.getName() + " holds " + stored + " values; declared " + kind);
    }
    ColumnValues c = new ColumnValues(vector.getName(), kind, width, scalar, rows);
    for (int r = 0; r < rows; r++) {
      int base =
          vector instanceof ListVector l ? l.getElementStartIndex(from + r) : (from + r) * width;
      if (scalar) {
        base = from + r;
      }
      for (int j = 0; j < width; j++) {
        int at = base + j;
        int out = r * width + j;
        if (items.isNull(at)) {
          throw new DatasetException.BadMetadata(
              file, "null in column " + vector.getName() + " row " + (from + r));
        }
        if (kind == stored) {
          switch (kind) {
            case FLOAT32 -> c.f32[out] = ((Float4Vector) items).get(at);
            case FLOAT64 -> c.f64[out] = ((Float8Vector) items).get(at);
            case INT64 -> c.i64[out] = ((BaseIntVector) items).getValueAsLong(at);
            case BOOL -> c.bool[out] = ((BitVector) items).get(at) != 0;
            case STRING -> c.str[out] = String.valueOf(items.getObject(at));
            default -> throw new IllegalStateException();
          }
        } else {
          cast(items, stored, at, c, out);
        }
      }
    }
    return c;
  }

  /** Numbers of the same kind of value: floats, integers and bools to floats or integers. */
  private static boolean castable(Kind stored, Kind target) {
    return switch (target) {
      case FLOAT32, FLOAT64 ->
          stored == Kind.FLOAT32
              || stored == Kind.FLOAT64
              || stored == Kind.INT64
              || stored == Kind.BOOL;
      case INT64 -> stored == Kind.BOOL;
      default -> false;
    };
  }

  private static void cast(ValueVector items, Kind stored, int at, ColumnValues c, int out) {
    double v =
        switch (stored) {
          case FLOAT32 -> ((Float4Vector) items).get(at);
          case FLOAT64 -> ((Float8Vector) items).get(at);
          case INT64 -> ((BaseIntVector) items).getValueAsLong(at);
          case BOOL -> ((BitVector) items).get(at);
          default -> throw new IllegalStateException();
        };
    switch (c.kind) {
      case FLOAT32 -> c.f32[out] = (float) v;
      case FLOAT64 -> c.f64[out] = v;
      case INT64 -> c.i64[out] = (long) v; // from bool: 0 or 1
      default -> throw new IllegalStateException();
    }
  }

  private static Kind kindOf(ValueVector items, String column, String file) {
    if (items instanceof Float4Vector) {
      return Kind.FLOAT32;
    }
    if (items instanceof Float8Vector) {
      return Kind.FLOAT64;
    }
    if (items instanceof BaseIntVector) {
      return Kind.INT64;
    }
    if (items instanceof BitVector) {
      return Kind.BOOL;
    }
    if (items instanceof org.apache.arrow.vector.VarCharVector
        || items instanceof org.apache.arrow.vector.LargeVarCharVector) {
      return Kind.STRING;
    }
    throw new DatasetException.BadMetadata(
        file, "column " + column + " has unsupported type " + items.getField().getType());
  }

  long longAt(int row) {
    return i64[row * width];
  }

  /** The first value of {@code row} of a float32 or float64 column. */
  double doubleAt(int row) {
    return kind == Kind.FLOAT32 ? f32[row * width] : f64[row * width];
  }
}
