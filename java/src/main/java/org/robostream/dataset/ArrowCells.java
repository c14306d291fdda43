package org.robostream.dataset;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.BaseListVector;

/**
 * Reads single cells of metadata tables (episodes, tasks) whatever integer, floating-point or
 * string type the writer chose. For the small metadata tables only: frame data goes through {@code
 * EpisodeRows}. Stateless.
 */
final class ArrowCells {
  private ArrowCells() {}

  static FieldVector column(VectorSchemaRoot root, String name, String file) {
    FieldVector v = root.getVector(name);
    if (v == null) {
      throw new DatasetException.BadMetadata(file, "column " + name + " is missing");
    }
    return v;
  }

  /**
   * A whole number in [min, max] from an integer column, or from a floating-point one holding a
   * whole value (pandas turns integer columns with gaps into floats); fractions, NaN, strings and
   * values out of range are refused, never truncated.
   *
   * @param what the field, as the message should name it ("episode 3 length")
   */
  static long wholeAt(FieldVector v, int row, String file, String what, long min, long max) {
    if (v.isNull(row)) {
      throw new DatasetException.BadMetadata(
          file, what + " is null (column " + v.getName() + " row " + row + ")");
    }
    long value;
    if (v instanceof BaseIntVector i) {
      value = i.getValueAsLong(row);
    } else if (v instanceof FloatingPointVector f) {
      double d = f.getValueAsDouble(row);
      if (!(d == Math.rint(d) && Math.abs(d) < 0x1p62)) {
        throw notWhole(v, row, file, what, min, max, d);
      }
      value = (long) d;
    } else {
      throw wrongType(v, file, "an integer column");
    }
    if (value < min || value > max) {
      throw notWhole(v, row, file, what, min, max, value);
    }
    return value;
  }

  private static DatasetException.BadMetadata notWhole(
      FieldVector v, int row, String file, String what, long min, long max, Object got) {
    return new DatasetException.BadMetadata(
        file,
        what
            + " must be a whole number from "
            + min
            + " to "
            + max
            + ", got "
            + got
            + " (column "
            + v.getName()
            + " row "
            + row
            + ")");
  }

  /** Column {@code v} of {@code file} has another type than {@code expected} names. */
  static DatasetException.BadMetadata wrongType(FieldVector v, String file, String expected) {
    return new DatasetException.BadMetadata(
        file, "column " + v.getName() + " is " + v.getField().getType() + "; expected " + expected);
  }

  static double doubleAt(FieldVector v, int row, String file) {
    if (v.isNull(row)) {
      throw new DatasetException.BadMetadata(file, "null in column " + v.getName() + " row " + row);
    }
    if (v instanceof FloatingPointVector f) {
      return f.getValueAsDouble(row);
    }
    if (v instanceof BaseIntVector i) {
      return i.getValueAsLong(row);
    }
    throw wrongType(v, file, "a number column");
  }

  static String stringAt(FieldVector v, int row) {
    Object o = v.getObject(row);
    return o == null ? null : o.toString();
  }

  static List<String> stringsAt(FieldVector v, int row) {
    List<String> out = new ArrayList<>();
    if (v instanceof BaseListVector && !v.isNull(row)) {
      Object o = v.getObject(row);
      if (o instanceof List<?> list) {
        for (Object item : list) {
          out.add(String.valueOf(item));
        }
      }
    } else if (!v.isNull(row)) {
      out.add(String.valueOf(v.getObject(row)));
    }
    return out;
  }
}
