package org.robostream.dataset;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Checks a data file's columns against the features info.json declares: every declared non-video
 * feature is a column, an image feature a struct of encoded bytes ({@link ImageColumn}), the others
 * of the declared element type or one that casts to it without changing its kind, and, for
 * fixed-size lists, of the declared element count. Columns are delivered as declared, as LeRobot's
 * feature-typed loading casts them: float64 and float32 to each other, any integer to the declared
 * integer or float type, bool to a declared number ({@link #castable}). A cast that changes the
 * kind of value (a float to an integer, a number to bool, a string to a number) is refused naming
 * both types. So every data file of a dataset delivers the same columns with the same types, and an
 * index column of floats or strings is named as such instead of failing later. Stateless.
 */
public final class FeatureColumns {
  /** Columns that place rows: read as integers, so never cast (a float declaration is refused). */
  static final java.util.Set<String> INDEX_COLUMNS =
      java.util.Set.of("episode_index", "frame_index", "index", "task_index");

  private FeatureColumns() {}

  /**
   * Throws {@link DatasetException.BadMetadata} naming file, column, declared and actual type.
   *
   * @return the columns stored in another type than declared, which are cast, as "observation.state
   *     (float64 as float32)"
   */
  public static List<String> check(DatasetInfo info, Schema schema, String file) {
    List<String> casts = new ArrayList<>();
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
                              + (info.assumedDefaults().contains(f.name())
                                  ? ", a LeRobot default feature that info.json leaves out and"
                                      + " other data files have (read as "
                                      + declared(f)
                                      + ")"
                                  : ", which info.json declares as " + declared(f))));
      ArrowType type = field.getType();
      if (deliveredAsJson(f, field)) {
        String problem = JsonCells.unsupported(field);
        if (problem != null) {
          throw new DatasetException.BadMetadata(
              file,
              "column "
                  + f.name()
                  + " holds values that JSON text cannot carry ("
                  + problem
                  + "): a "
                  + f.dtype()
                  + " column is delivered as one JSON text per row, of strings, numbers, bools,"
                  + " structs, lists and maps");
        }
        continue;
      }
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
      boolean exact = matches(f.dtype(), element);
      // Rows are placed and paired with frames by the index columns: never cast to floats.
      boolean cast = !INDEX_COLUMNS.contains(f.name()) && castable(f.dtype(), element);
      if (!(exact || cast) || size != f.elementCount()) {
        throw new DatasetException.BadMetadata(
            file,
            "column "
                + f.name()
                + " is "
                + type
                + (element == type ? "" : " of " + element)
                + " but info.json declares "
                + declared(f)
                + (size != f.elementCount()
                    ? ""
                    : " (columns are cast to the declared type only within a kind of value, as"
                        + " LeRobot casts them: between float32 and float64, integers to"
                        + " integers or floats, bool to numbers)"));
      }
      if (!exact) {
        casts.add(f.name() + " (" + stored(element) + " as " + f.dtype() + ")");
      }
    }
    return casts;
  }

  /**
   * Whether feature {@code f}, stored as {@code field}, is delivered as one JSON text per row (a
   * string column; see {@link JsonCells} for the form): a {@code language} column (LeRobot's {@code
   * language_persistent} and {@code language_events}: lists of message structs), and a column of a
   * dtype robostream does not deliver as numbers or strings whose values are structs, maps or lists
   * of them. A column declared numeric, bool or string keeps its checks (a nested one is refused
   * naming both types): its declaration promises values, not text.
   */
  public static boolean deliveredAsJson(Feature f, Field field) {
    if (f.isVideo() || f.isImage()) {
      return false;
    }
    if (f.isLanguage()) {
      return true;
    }
    return !KNOWN_DTYPES.contains(f.dtype()) && nested(field);
  }

  /** Dtypes delivered as what they declare (numbers, bools, strings, frames). */
  private static final java.util.Set<String> KNOWN_DTYPES =
      java.util.Set.of(
          "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "bool", "string", "video", "image");

  /** A struct or map, or a list whose items are not plain values (structs, lists, maps). */
  private static boolean nested(Field field) {
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Struct || type instanceof ArrowType.Map) {
      return true;
    }
    boolean list =
        type instanceof ArrowType.List
            || type instanceof ArrowType.LargeList
            || type instanceof ArrowType.FixedSizeList;
    return list
        && !field.getChildren().isEmpty()
        && !field.getChildren().get(0).getChildren().isEmpty();
  }

  /**
   * Whether a column of {@code element} values is delivered as {@code dtype} by a cast that keeps
   * the kind of value (LeRobot applies the declared features when it loads the Parquet files).
   */
  static boolean castable(String dtype, ArrowType element) {
    boolean floating =
        element instanceof ArrowType.FloatingPoint p
            && p.getPrecision() != FloatingPointPrecision.HALF;
    return switch (dtype) {
      case "float32", "float64" ->
          floating || element instanceof ArrowType.Int || element instanceof ArrowType.Bool;
      case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64" ->
          element instanceof ArrowType.Bool;
      default -> false;
    };
  }

  private static String stored(ArrowType element) {
    if (element instanceof ArrowType.FloatingPoint p) {
      return p.getPrecision() == FloatingPointPrecision.DOUBLE ? "float64" : "float32";
    }
    if (element instanceof ArrowType.Int i) {
      return (i.getIsSigned() ? "int" : "uint") + i.getBitWidth();
    }
    return element instanceof ArrowType.Bool ? "bool" : element.toString();
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
