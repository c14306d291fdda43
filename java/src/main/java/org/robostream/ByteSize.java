package org.robostream;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte sizes as people write them, for every option that takes one ({@code --frame-cache
 * memory:SIZE}, the Python bridge's {@code frame_cache}). Stateless.
 *
 * <p>A number, optional spaces, an optional unit {@code K}, {@code M}, {@code G} or {@code T}
 * (alone or with {@code B}, {@code i}, {@code iB}, any case). Every unit is binary, as {@code
 * -Xmx}, SLURM and {@code df -h} count, so {@code 2GB} and {@code 2GiB} never differ by 7%.
 * Decimals round down to a whole byte; plain bytes must be whole.
 *
 * <p>Refused with an {@link IllegalArgumentException} naming the text: no number, an unknown unit,
 * a negative number, less than 1 byte, more than {@link Long#MAX_VALUE} bytes.
 */
public final class ByteSize {
  /** What to write, for messages. */
  public static final String EXAMPLES = "write 512M, 2GiB, 1.5T or a number of bytes";

  /** Longer texts are no size: a bound before any arithmetic on the digits. */
  private static final int MAX_LENGTH = 64;

  private static final Pattern SIZE =
      Pattern.compile("([0-9]+(?:\\.[0-9]+)?|\\.[0-9]+)\\s*(?:([KMGT])(I)?)?(B)?");

  private static final String UNITS = "KMGT";

  private ByteSize() {}

  /**
   * The bytes {@code text} stands for.
   *
   * @throws IllegalArgumentException naming {@code text} and what is wrong with it
   */
  public static long parse(String text) {
    String t = text == null ? "" : text.strip();
    if (t.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "a " + t.length() + "-character text is not a size (" + EXAMPLES + ")");
    }
    Matcher m = SIZE.matcher(t.toUpperCase(Locale.ROOT));
    if (!m.matches()) {
      String why = t.startsWith("-") ? ": sizes are positive" : " (" + EXAMPLES + ")";
      throw new IllegalArgumentException(quoted(text) + " is not a size" + why);
    }
    int shift = m.group(2) == null ? 0 : 10 * (UNITS.indexOf(m.group(2)) + 1);
    BigDecimal number = new BigDecimal(m.group(1));
    if (shift == 0 && number.stripTrailingZeros().scale() > 0) {
      throw new IllegalArgumentException(
          quoted(text) + " is not a whole number of bytes (write a unit for a fraction: 1.5G)");
    }
    BigDecimal bytes = number.multiply(BigDecimal.valueOf(1L << shift));
    if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException(
          quoted(text) + " is more than " + Long.MAX_VALUE + " bytes, the largest size");
    }
    long whole = bytes.setScale(0, RoundingMode.FLOOR).longValueExact();
    if (whole < 1) {
      throw new IllegalArgumentException(quoted(text) + " is not a size: it is less than 1 byte");
    }
    return whole;
  }

  /**
   * {@code bytes} in the largest binary unit that keeps it at least 1, with up to two decimals and
   * the exact count: "1.5 GiB (1610612736 bytes)". For messages.
   */
  public static String describe(long bytes) {
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) {
      return bytes + " bytes";
    }
    int unit = 0;
    while (unit + 1 < units.length && bytes >= 1L << (10 * (unit + 2))) {
      unit++;
    }
    BigDecimal scaled =
        BigDecimal.valueOf(bytes)
            .divide(BigDecimal.valueOf(1L << (10 * (unit + 1))), 2, RoundingMode.HALF_UP)
            .stripTrailingZeros();
    return scaled.toPlainString() + " " + units[unit] + " (" + bytes + " bytes)";
  }

  /** The text as a message names it: quoted only when blank, so that it shows. */
  private static String quoted(String text) {
    return text == null ? "null" : text.isBlank() ? "\"" + text + "\"" : text;
  }
}
