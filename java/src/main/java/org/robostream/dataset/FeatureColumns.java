package org.robostream.dataset;

import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Checks a data file's columns against the features info.json declares: every declared non-video
 * feature is a column, an image feature a struct of encoded bytes ({@link ImageColumn}), the others
 * of the declared element type (float32, float64, an integer type, bool, string) and, for
 * fixed-size lists, of the declared element count. So every data file of a dataset delivers the
 * same columns with the same types, and an index column of floats or strings is named as such
 * instead of failing later. Stateless.
 */
public final class FeatureColumns {
  private FeatureColumns() {}

  /** Throws {@link DatasetException.BadMetadata} naming file, column, declared and actual type. */
  public static void check(DatasetInfo info, Schema schema, String file) {
    for (Feature f : info.features().values()) {
      if (f.isVideo()) {
        continue;
      }
      Field field =
          schema.getFields().stream()
              .filter(c -> c.getName().equals(f.name()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new DatasetException.BadMetadata(
                          file,
                          "has no column "
                              + f.name()
                              + ", which info.json declares as "
                              + declared(f)));
      ArrowType type = field.getType();
      if (f.isImage()) {
        if (!ImageColumn.matches(field)) {
          throw new DatasetException.BadMetadata(
              file, "column " + f.name() + " is " + describe(field) + ImageColumn.EXPECTED);
        }
        continue;
      }
      ArrowType element = type;
      long size = 1;
      if (type instanceof ArrowType.FixedSizeList fixed) {
        element = field.getChildren().get(0).getType();
        size = fixed.getListSize();
      } else if (type instanceof ArrowType.List || type instanceof ArrowType.LargeList) {
        element = field.getChildren().get(0).getType();
        size = f.elementCount(); // per row: checked when rows are read
      }
      if (!matches(f.dtype(), element) || size != f.elementCount()) {
        throw new DatasetException.BadMetadata(
            file,
            "column "
                + f.name()
                + " is "
                + type
                + (element == type ? "" : " of " + element)
                + " but info.json declares "
                + declared(f));
      }
    }
  }

  private static String describe(Field field) {
    return field.getChildren().isEmpty()
        ? field.getType().toString()
        : field.getType()
            + "<"
            + String.join(
                ", ",
                field.getChildren().stream().map(c -> c.getName() + ": " + c.getType()).toList())
            + ">";
  }

  private static String declared(Feature f) {
    return f.dtype() + " " + java.util.Arrays.toString(f.shape());
  }

  /** Unknown dtypes match anything: only the ones LeRobot writes are checked. */
  private static boolean matches(String dtype, ArrowType element) {
    return switch (dtype) {
      case "float32" ->
          element instanceof ArrowType.FloatingPoint p
              && p.getPrecision() == FloatingPointPrecision.SINGLE;
      case "float64" ->
          element instanceof ArrowType.FloatingPoint p
              && p.getPrecision() == FloatingPointPrecision.DOUBLE;
      case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" ->
          element instanceof ArrowType.Int;
      case "bool" -> element instanceof ArrowType.Bool;
      case "string" -> element instanceof ArrowType.Utf8 || element instanceof ArrowType.LargeUtf8;
      default -> true;
    };
  }
}
