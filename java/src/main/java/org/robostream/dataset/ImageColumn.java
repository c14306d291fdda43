package org.robostream.dataset;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The Parquet column of an image feature: a struct {@code {bytes: binary, path: string}}, Hugging
 * Face datasets' {@code Image} type, which LeRobot writes for {@code dtype: image}. Stateless.
 */
final class ImageColumn {
  static final String BYTES = "bytes";
  static final String PATH = "path";
  static final String EXPECTED =
      " but info.json declares an image feature, stored as a struct {bytes: binary, path: string}"
          + " (as LeRobot writes it)";

  private ImageColumn() {}

  /** Whether {@code field} is such a struct (its {@code path} child is optional). */
  static boolean matches(Field field) {
    if (!(field.getType() instanceof ArrowType.Struct)) {
      return false;
    }
    return field.getChildren().stream()
        .anyMatch(
            c ->
                c.getName().equals(BYTES)
                    && (c.getType() instanceof ArrowType.Binary
                        || c.getType() instanceof ArrowType.LargeBinary));
  }

  /**
   * The most bytes one encoded image of a {@code height x width x channels} feature may take: its
   * raw size twice over plus 1 MiB, more than any PNG or JPEG of that size needs (PNG adds a filter
   * byte per row and zlib's few bytes per block to the raw pixels; JPEG at quality 100 stays below
   * twice the raw size), so a hostile row cannot make a worker copy gigabytes.
   */
  static long maxEncodedBytes(long declaredValues) {
    return 2 * declaredValues + (1 << 20);
  }
}
