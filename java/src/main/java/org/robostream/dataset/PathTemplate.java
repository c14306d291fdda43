package org.robostream.dataset;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LeRobot's Python-style path templates ({@code data/chunk-{episode_chunk:03d}/...}), read as
 * Python's {@code str.format} reads the forms LeRobot writes: fields {@code {name}}, integers
 * padded to a width {@code {name:0Nd}} (zeros) or {@code {name:Nd}} (spaces), and {@code {{}} /
 * {@code }}} for literal braces. Anything else in braces (a positional {@code {}}, an unclosed
 * field, another format) is refused when the template is made, naming the template and its file:
 * left as text it would only turn up later as a file that does not exist. A rendered path must stay
 * inside the dataset root: absolute paths and {@code ..} segments are rejected. Immutable,
 * thread-safe.
 */
public final class PathTemplate {
  private static final Pattern FIELD =
      Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)(?::(0?)(\\d*)d?)?");

  /** A long has 19 digits and a sign: wider padding only makes paths (and allocations) huge. */
  static final int MAX_PAD_WIDTH = 20;

  /** One field: its name, the width it is padded to (0: none) and whether with zeros. */
  private record Field(String name, int width, boolean zeros) {}

  private final String template;
  private final String source;
  private final String key;

  /** Literal text and {@link Field}s, in order. */
  private final List<Object> parts = new ArrayList<>();

  /**
   * @param source the file the template came from (info.json), for messages
   * @param key its key there ({@code data_path}, {@code video_path}), for messages
   * @throws DatasetException.BadMetadata when the template has braces that are no field, or a
   *     field's pad width exceeds {@link #MAX_PAD_WIDTH}
   */
  public PathTemplate(String template, String source, String key) {
    this.template = template;
    this.source = source;
    this.key = key;
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if ((c == '{' || c == '}') && i + 1 < template.length() && template.charAt(i + 1) == c) {
        text.append(c); // {{ and }} are literal braces, as in Python
        i++;
      } else if (c == '{') {
        int close = template.indexOf('}', i);
        String inside = close < 0 ? null : template.substring(i + 1, close);
        Matcher m = inside == null ? null : FIELD.matcher(inside);
        if (m == null || !m.matches()) {
          throw notAField(close < 0 ? template.substring(i) : template.substring(i, close + 1));
        }
        parts.add(text.toString());
        text.setLength(0);
        parts.add(field(m));
        i = close;
      } else if (c == '}') {
        throw notAField("}");
      } else {
        text.append(c);
      }
    }
    parts.add(text.toString());
  }

  private Field field(Matcher m) {
    String digits = m.group(3) == null ? "" : m.group(3);
    if (digits.length() > 2 || (!digits.isEmpty() && Integer.parseInt(digits) > MAX_PAD_WIDTH)) {
      throw new DatasetException.BadMetadata(
          source,
          key
              + " "
              + template
              + " pads {"
              + m.group(1)
              + "} to "
              + digits
              + " digits; at most "
              + MAX_PAD_WIDTH
              + " are allowed");
    }
    return new Field(
        m.group(1), digits.isEmpty() ? 0 : Integer.parseInt(digits), "0".equals(m.group(2)));
  }

  private DatasetException notAField(String braces) {
    return new DatasetException.BadMetadata(
        source,
        key
            + " "
            + template
            + " has "
            + braces
            + ", which is no field that LeRobot or robostream can fill (fields are {name}, or"
            + " {name:03d} for a padded number)");
  }

  public String template() {
    return template;
  }

  /**
   * Refuses a template that uses a field the layout does not fill: the message names the field and
   * the ones there are, so a template written for another layout version says so when the dataset
   * is opened.
   *
   * @param layout the layout, for the message ("v2.1", "v3.0")
   * @param filled the fields the layout's reader fills
   */
  void requireFields(String layout, Collection<String> filled) {
    for (Object part : parts) {
      if (part instanceof Field f && !filled.contains(f.name())) {
        throw new DatasetException.BadMetadata(
            source,
            key
                + " "
                + template
                + " uses {"
                + f.name()
                + "}, which a "
                + layout
                + " dataset does not fill (it fills "
                + String.join(", ", filled.stream().map(n -> "{" + n + "}").toList())
                + "); LeRobot's "
                + layout
                + " reader cannot fill it either: "
                + fix(f.name(), filled));
      }
    }
  }

  /**
   * How to correct a template that uses {@code field}: the layout's field of the same meaning (the
   * chunk is {@code episode_chunk} in v2.x and {@code chunk_index} in v3.0), else the ones there
   * are.
   */
  private String fix(String field, Collection<String> filled) {
    String same =
        switch (field) {
          case "chunk_index" -> "episode_chunk";
          case "episode_chunk" -> "chunk_index";
          default -> null;
        };
    return same != null && filled.contains(same)
        ? "write {" + same + "} for {" + field + "} in meta/info.json's " + key
        : "write " + key + " in meta/info.json with the fields above";
  }

  /** Fills the fields; an unknown field is a {@link DatasetException.BadMetadata}. */
  public String render(Map<String, ?> values) {
    StringBuilder out = new StringBuilder();
    for (Object part : parts) {
      if (!(part instanceof Field f)) {
        out.append(part);
        continue;
      }
      Object value = values.get(f.name());
      if (value == null) {
        throw new DatasetException.BadMetadata(
            source, key + " " + template + " uses unknown field {" + f.name() + "}");
      }
      if (f.width() == 0) {
        out.append(value);
      } else if (value instanceof Number n) {
        out.append(String.format("%" + (f.zeros() ? "0" : "") + f.width() + "d", n.longValue()));
      } else {
        throw new DatasetException.BadMetadata(
            source, "field {" + f.name() + "} of " + key + " " + template + " needs an integer");
      }
    }
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
