package org.robostream.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.robostream.dataset.ParquetFrames;
import org.robostream.dataset.synth.ParquetTableWriter;

/**
 * Rewrites a Parquet table for tests that need damaged or unusual metadata and data files: rows
 * reordered, dropped or repeated, cells changed, scalar columns retyped or removed. Reads the whole
 * file on {@link #open}; {@link #writeTo} replaces a file. Not thread-safe; close it.
 */
public final class ParquetEdit implements AutoCloseable {
  public static final ArrowType INT64 = new ArrowType.Int(64, true);
  public static final ArrowType INT32 = new ArrowType.Int(32, true);
  public static final ArrowType FLOAT64 =
      new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
  public static final ArrowType FLOAT32 =
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
  public static final ArrowType UTF8 = ArrowType.Utf8.INSTANCE;

  private final BufferAllocator allocator = new RootAllocator();
  private List<FieldVector> vectors;
  private int rows;

  private ParquetEdit(Path file) {
    List<String> names = ParquetFrames.fileColumns(allocator, file);
    VectorSchemaRoot read = ParquetFrames.read(allocator, file, names);
    rows = read.getRowCount();
    vectors = new ArrayList<>(read.getFieldVectors());
  }

  public static ParquetEdit open(Path file) {
    return new ParquetEdit(file);
  }

  /** Applies {@code change} to {@code file} in place. */
  public static void rewrite(Path file, java.util.function.Consumer<ParquetEdit> change)
      throws IOException {
    try (ParquetEdit edit = open(file)) {
      change.accept(edit);
      edit.writeTo(file);
    }
  }

  public int rows() {
    return rows;
  }

  public List<String> columns() {
    return vectors.stream().map(v -> v.getField().getName()).toList();
  }

  /** The Arrow type of {@code column}. */
  public ArrowType type(String column) {
    return vector(column).getField().getType();
  }

  public long longAt(String column, int row) {
    return ((BaseIntVector) vector(column)).getValueAsLong(row);
  }

  public double doubleAt(String column, int row) {
    FieldVector v = vector(column);
    return v instanceof FloatingPointVector f
        ? f.getValueAsDouble(row)
        : ((BaseIntVector) v).getValueAsLong(row);
  }

  /** Sets an integer cell (an integer column) or a number cell (a floating-point column). */
  public ParquetEdit set(String column, int row, double value) {
    FieldVector v = vector(column);
    if (v instanceof BigIntVector b) {
      b.set(row, requireWhole(value));
    } else if (v instanceof IntVector i) {
      i.set(row, Math.toIntExact(requireWhole(value)));
    } else if (v instanceof Float8Vector d) {
      d.set(row, value);
    } else if (v instanceof Float4Vector f) {
      f.set(row, (float) value);
    } else {
      throw new IllegalArgumentException(column + " is " + type(column) + ": not a number column");
    }
    return this;
  }

  /** Sets a cell of a string column. */
  public ParquetEdit setText(String column, int row, String value) {
    ((VarCharVector) vector(column)).setSafe(row, value.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  /**
   * Keeps rows in the given order: row i of the result is row {@code order[i]} of the table, so
   * rows can be dropped, repeated or swapped.
   */
  public ParquetEdit keepRows(int... order) {
    List<FieldVector> out = new ArrayList<>();
    for (FieldVector from : vectors) {
      FieldVector to = from.getField().createVector(allocator);
      to.allocateNew();
      for (int r = 0; r < order.length; r++) {
        to.copyFromSafe(order[r], r, from);
      }
      to.setValueCount(order.length);
      out.add(to);
    }
    replaceAll(out);
    rows = order.length;
    return this;
  }

  /** Converts a scalar number or string column to {@code type} (values as numbers or text). */
  public ParquetEdit retype(String column, ArrowType type) {
    FieldVector from = vector(column);
    FieldVector to = new Field(column, FieldType.nullable(type), null).createVector(allocator);
    to.allocateNew();
    for (int r = 0; r < rows; r++) {
      Object value = from.getObject(r);
      if (to instanceof VarCharVector s) {
        s.setSafe(r, String.valueOf(value).getBytes(StandardCharsets.UTF_8));
      } else {
        double number =
            value instanceof Number n ? n.doubleValue() : Double.parseDouble(value.toString());
        setNumber(to, r, number);
      }
    }
    to.setValueCount(rows);
    List<FieldVector> out = new ArrayList<>(vectors);
    out.set(indexOf(column), to);
    from.close();
    vectors = out;
    return this;
  }

  /** Removes {@code column}. */
  public ParquetEdit drop(String column) {
    int at = indexOf(column);
    vectors.get(at).close();
    vectors = new ArrayList<>(vectors);
    vectors.remove(at);
    return this;
  }

  /**
   * Damages the encoded image of image-feature {@code column} (a struct {bytes, path}) in row
   * {@code row}: its bytes after the first {@code keep} are zeroed, its length unchanged.
   */
  public ParquetEdit damageImage(String column, int row, int keep) {
    StructVector struct = (StructVector) vectors.get(indexOf(column));
    VarBinaryVector bytes = struct.getChild("bytes", VarBinaryVector.class);
    long start = bytes.getStartOffset(row);
    int length = bytes.getValueLength(row);
    for (int i = keep; i < length; i++) {
      bytes.getDataBuffer().setByte(start + i, 0);
    }
    return this;
  }

  /**
   * Removes the encoded bytes of image-feature {@code column} in row {@code row} (null), keeping
   * its path: an image stored as a separate file.
   */
  public ParquetEdit dropImageBytes(String column, int row) {
    ((StructVector) vectors.get(indexOf(column)))
        .getChild("bytes", VarBinaryVector.class)
        .setNull(row);
    return this;
  }

  /** Replaces the encoded image of image-feature {@code column} in row {@code row}. */
  public ParquetEdit replaceImage(String column, int row, byte[] image) {
    int at = indexOf(column);
    StructVector from = (StructVector) vectors.get(at);
    StructVector to = (StructVector) from.getField().createVector(allocator);
    to.allocateNew();
    VarBinaryVector fromBytes = from.getChild("bytes", VarBinaryVector.class);
    VarCharVector fromPath = from.getChild("path", VarCharVector.class);
    VarBinaryVector bytes = to.getChild("bytes", VarBinaryVector.class);
    VarCharVector path = to.getChild("path", VarCharVector.class);
    for (int r = 0; r < rows; r++) {
      to.setIndexDefined(r);
      bytes.setSafe(r, r == row ? image : fromBytes.get(r));
      path.setSafe(r, fromPath.get(r));
    }
    bytes.setValueCount(rows);
    path.setValueCount(rows);
    to.setValueCount(rows);
    from.close();
    vectors.set(at, to);
    return this;
  }

  public void writeTo(Path file) throws IOException {
    try (VectorSchemaRoot root = new VectorSchemaRoot(vectors)) {
      vectors = List.of(); // the root owns them now and closes them
      root.setRowCount(rows);
      ParquetTableWriter.write(allocator, root.getSchema(), List.of(root), file);
    }
  }

  @Override
  public void close() {
    vectors.forEach(FieldVector::close);
    vectors = List.of();
    allocator.close();
  }

  private static void setNumber(FieldVector to, int row, double value) {
    if (to instanceof BigIntVector b) {
      b.setSafe(row, (long) value);
    } else if (to instanceof IntVector i) {
      i.setSafe(row, (int) value);
    } else if (to instanceof Float8Vector d) {
      d.setSafe(row, value);
    } else if (to instanceof Float4Vector f) {
      f.setSafe(row, (float) value);
    } else {
      throw new IllegalArgumentException("cannot retype to " + to.getField().getType());
    }
  }

  private static long requireWhole(double value) {
    if (value != Math.rint(value)) {
      throw new IllegalArgumentException(value + " in an integer column: retype it first");
    }
    return (long) value;
  }

  private void replaceAll(List<FieldVector> out) {
    vectors.forEach(FieldVector::close);
    vectors = out;
  }

  private int indexOf(String column) {
    for (int i = 0; i < vectors.size(); i++) {
      if (vectors.get(i).getField().getName().equals(column)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no column " + column + " in " + columns());
  }

  private FieldVector vector(String column) {
    return vectors.get(indexOf(column));
  }
}
