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
 * string type the writer chose. For the small metadata tables only: frame data goes through
 * {@code EpisodeRows}. Stateless.
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

  static long longAt(FieldVector v, int row, String file) {
    if (v.isNull(row)) {
      throw new DatasetException.BadMetadata(file, "null in column " + v.getName() + " row " + row);
    }
    if (v instanceof BaseIntVector i) {
      return i.getValueAsLong(row);
    }
    if (v instanceof FloatingPointVector f) {
      double d = f.getValueAsDouble(row);
      if (d != Math.rint(d)) {
        throw new DatasetException.BadMetadata(file, "column " + v.getName() + " row " + row
            + " holds " + d + " where an integer is expected");
      }
      return (long) d;
    }
    throw new DatasetException.BadMetadata(file, "column " + v.getName() + " is "
        + v.getField().getType() + ", not an integer");
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
    throw new DatasetException.BadMetadata(file, "column " + v.getName() + " is "
        + v.getField().getType() + ", not a number");
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
