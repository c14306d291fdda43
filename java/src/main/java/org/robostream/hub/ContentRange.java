package org.robostream.hub;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code Content-Range} of a single-range answer, {@code bytes FIRST-LAST/TOTAL} (RFC 9110
 * §14.4), and what it must be for a request: a 206 for other bytes than those asked for (a shifted
 * CDN answer) would otherwise be read as the file. Immutable.
 *
 * @param first the first byte the answer holds
 * @param last the last byte it holds (inclusive)
 * @param total the file's size
 */
record ContentRange(long first, long last, long total) {
  private static final Pattern SATISFIED =
      Pattern.compile("bytes (\\d{1,18})-(\\d{1,18})/(\\d{1,18})");
  private static final Pattern UNSATISFIED = Pattern.compile("bytes \\*/(\\d{1,18})");

  /** The header's range; empty when it is missing, malformed, unknown-length or inconsistent. */
  static Optional<ContentRange> parse(String header) {
    Matcher m = header == null ? null : SATISFIED.matcher(header.trim());
    if (m == null || !m.matches()) {
      return Optional.empty();
    }
    ContentRange r =
        new ContentRange(
            Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
    return r.first <= r.last && r.last < r.total ? Optional.of(r) : Optional.empty();
  }

  /** The total of a 416's {@code bytes *}{@code /TOTAL}; empty when missing or malformed. */
  static OptionalLong unsatisfiedTotal(String header) {
    Matcher m = header == null ? null : UNSATISFIED.matcher(header.trim());
    return m != null && m.matches()
        ? OptionalLong.of(Long.parseLong(m.group(1)))
        : OptionalLong.empty();
  }

  /** Whether this is exactly the answer to {@code bytes=start-(start+length-1)}. */
  boolean answers(long start, int length) {
    return first == start && last == Math.min(start + length, total) - 1;
  }

  /** Bytes the answer holds. */
  long length() {
    return last - first + 1;
  }

  /** The header's value, for messages. */
  @Override
  public String toString() {
    return "bytes " + first + "-" + last + "/" + total;
  }
}
