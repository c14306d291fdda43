package org.robostream.dataset;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * LeRobot's Python-style path templates ({@code data/chunk-{episode_chunk:03d}/...}): fields
 * {@code {name}} and zero-padded integers {@code {name:0Nd}}. A rendered path must stay inside the
 * dataset root: absolute paths and {@code ..} segments are rejected. Immutable, thread-safe.
 */
public final class PathTemplate {
  private static final Pattern FIELD = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)(?::0?(\\d+)d)?}");

  private final String template;
  private final String source;

  /** @param source where the template came from (info.json), for messages */
  public PathTemplate(String template, String source) {
    this.template = template;
    this.source = source;
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
        throw new DatasetException.BadMetadata(source, "path template " + template
            + " uses unknown field {" + m.group(1) + "}");
      }
      String text;
      if (m.group(2) != null) {
        if (!(value instanceof Number n)) {
          throw new DatasetException.BadMetadata(source, "field {" + m.group(1) + "} of "
              + template + " needs an integer");
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

  /** Renders and resolves under {@code root}, refusing paths that would leave it. */
  public Path resolve(Path root, Map<String, ?> values) {
    String rendered = render(values);
    Path relative = Path.of(rendered);
    if (relative.isAbsolute() || rendered.startsWith("/") || rendered.startsWith("\\")) {
      throw new DatasetException.BadMetadata(source, "path template " + template
          + " gives an absolute path: " + rendered);
    }
    for (Path part : relative) {
      if (part.toString().equals("..")) {
        throw new DatasetException.BadMetadata(source, "path template " + template
            + " escapes the dataset root: " + rendered);
      }
    }
    Path resolved = root.resolve(relative).normalize();
    if (!resolved.startsWith(root.normalize())) {
      throw new DatasetException.BadMetadata(source, "path " + rendered + " leaves the root");
    }
    return resolved;
  }

  @Override
  public String toString() {
    return template;
  }
}
