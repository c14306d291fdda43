package org.robostream.dataset;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LeRobot's Python-style path templates ({@code data/chunk-{episode_chunk:03d}/...}): fields {@code
 * {name}} and zero-padded integers {@code {name:0Nd}}. A rendered path must stay inside the dataset
 * root: absolute paths and {@code ..} segments are rejected. Immutable, thread-safe.
 */
public final class PathTemplate {
  private static final Pattern FIELD =
      Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)(?::0?(\\d+)d)?}");

  /** A long has 19 digits and a sign: wider padding only makes paths (and allocations) huge. */
  static final int MAX_PAD_WIDTH = 20;

  private final String template;
  private final String source;
  private final String key;

  /**
   * @param source the file the template came from (info.json), for messages
   * @param key its key there ({@code data_path}, {@code video_path}), for messages
   * @throws DatasetException.BadMetadata when a field's pad width exceeds {@link #MAX_PAD_WIDTH}
   */
  public PathTemplate(String template, String source, String key) {
    this.template = template;
    this.source = source;
    this.key = key;
    Matcher m = FIELD.matcher(template);
    while (m.find()) {
      if (m.group(2) != null
          && (m.group(2).length() > 2 || Integer.parseInt(m.group(2)) > MAX_PAD_WIDTH)) {
        throw new DatasetException.BadMetadata(
            source,
            key
                + " "
                + template
                + " pads {"
                + m.group(1)
                + "} to "
                + m.group(2)
                + " digits; at most "
                + MAX_PAD_WIDTH
                + " are allowed");
      }
    }
  }

  public String template() {
    return template;
  }

  /** Fills the fields; an unknown field is a {@link DatasetException.BadMetadata}. */
  public String render(Map<String, ?> values) {
    Matcher m = FIELD.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      Object value = values.get(m.group(1));
      if (value == null) {
        throw new DatasetException.BadMetadata(
            source, key + " " + template + " uses unknown field {" + m.group(1) + "}");
      }
      String text;
      if (m.group(2) != null) {
        if (!(value instanceof Number n)) {
          throw new DatasetException.BadMetadata(
              source,
              "field {" + m.group(1) + "} of " + key + " " + template + " needs an integer");
        }
        text = String.format("%0" + Integer.parseInt(m.group(2)) + "d", n.longValue());
      } else {
        text = value.toString();
      }
      m.appendReplacement(out, Matcher.quoteReplacement(text));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * Renders and resolves under {@code root} (made absolute, so {@code .} works), refusing paths
   * that would leave it.
   */
  public Path resolve(Path root, Map<String, ?> values) {
    String rendered = render(values);
    Path relative;
    try {
      relative = Path.of(rendered);
    } catch (java.nio.file.InvalidPathException e) {
      throw new DatasetException.BadMetadata(
          source,
          key + " " + template + " gives a path this system cannot use (" + e.getReason() + ")");
    }
    if (relative.isAbsolute() || rendered.startsWith("/") || rendered.startsWith("\\")) {
      throw new DatasetException.BadMetadata(
          source, key + " " + template + " gives an absolute path: " + rendered);
    }
    for (Path part : relative) {
      if (part.toString().equals("..")) {
        throw new DatasetException.BadMetadata(
            source, key + " " + template + " escapes the dataset root: " + rendered);
      }
    }
    Path base = root.toAbsolutePath().normalize();
    Path resolved = base.resolve(relative).normalize();
    if (!resolved.startsWith(base) || resolved.equals(base)) {
      throw new DatasetException.BadMetadata(
          source, key + " " + template + " gives " + rendered + ", which leaves the root");
    }
    return resolved;
  }

  @Override
  public String toString() {
    return template;
  }
}
