package org.robostream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Typed, bounded fields of a JSON document robostream reads back (a checkpoint's states, a policy's
 * configuration): each value is checked for its type and range before use and an error names the
 * field by its path ({@code segments[3].workers}) and what it got, never quoting a string (its text
 * may be anything). A checkpoint is input like any other file: a value of 2147483647 workers must
 * be an error, not an allocation. Stateless.
 */
public final class JsonFields {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonFields() {}

  /**
   * The JSON document in {@code file}: a regular file (not followed through a link) of at most
   * {@code maxBytes}.
   *
   * @throws FileException naming the file when it is missing, something else, too large, or not
   *     JSON (where, never its text)
   */
  public static JsonNode read(Path file, long maxBytes) {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileException(
          file.toString(),
          Files.exists(file, LinkOption.NOFOLLOW_LINKS)
              ? "is not a regular file"
              : "does not exist");
    }
    try {
      long size = Files.size(file);
      if (size > maxBytes) {
        throw new FileException(
            file.toString(), "is " + size + " bytes; at most " + maxBytes + " are read");
      }
      byte[] bytes = Files.readAllBytes(file);
      try {
        return object(JSON.readTree(bytes), file.toString());
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw notJson(file.toString(), e); // also bytes that are not UTF-8
      }
    } catch (IOException e) {
      throw new FileException(file.toString(), "cannot be read: " + e, e);
    }
  }

  /** The JSON document {@code text}; {@code where} names it in the error. */
  public static JsonNode parse(String text, String where) {
    try {
      return object(JSON.readTree(text), where);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw notJson(where, e);
    }
  }

  private static JsonNode object(JsonNode root, String where) {
    if (root == null || !root.isObject()) {
      throw new FileException(where, "is not a JSON object");
    }
    return root;
  }

  /** Where the text stops being JSON, never the text itself. */
  private static FileException notJson(
      String where, com.fasterxml.jackson.core.JsonProcessingException e) {
    com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
    return new FileException(
        where,
        "is not JSON"
            + (at == null
                ? ""
                : " (at line " + at.getLineNr() + ", column " + at.getColumnNr() + ")")
            + (e instanceof com.fasterxml.jackson.core.io.JsonEOFException
                ? ": the text ends inside a value (truncated?)"
                : ""));
  }

  /**
   * Field {@code name} of {@code parent}, a whole number in [min, max] ({@code 30} or {@code 30.0},
   * never a fraction, string or a number out of range).
   *
   * @param path how the message names the field
   * @throws IllegalArgumentException naming {@code path}, the range and what it got
   */
  public static long whole(JsonNode parent, String name, String path, long min, long max) {
    JsonNode n = parent.get(name);
    boolean whole =
        n != null
            && (n.isIntegralNumber()
                || (n.isFloatingPointNumber() && n.asDouble() == Math.rint(n.asDouble())));
    if (!whole || !n.canConvertToLong() || n.asLong() < min || n.asLong() > max) {
      throw new IllegalArgumentException(
          path + " must be a whole number from " + min + " to " + max + ", got " + describe(n));
    }
    return n.asLong();
  }

  /** Like {@link #whole} for an int field. */
  public static int wholeInt(JsonNode parent, String name, String path, int min, int max) {
    return (int) whole(parent, name, path, min, max);
  }

  /** Field {@code name}, a finite number in [min, max]. */
  public static double number(JsonNode parent, String name, String path, double min, double max) {
    JsonNode n = parent.get(name);
    if (n == null
        || !n.isNumber()
        || !Double.isFinite(n.asDouble())
        || n.asDouble() < min
        || n.asDouble() > max) {
      throw new IllegalArgumentException(
          path + " must be a number from " + min + " to " + max + ", got " + describe(n));
    }
    return n.asDouble();
  }

  /** Field {@code name}, true or false. */
  public static boolean bool(JsonNode parent, String name, String path) {
    JsonNode n = parent.get(name);
    if (n == null || !n.isBoolean()) {
      throw new IllegalArgumentException(path + " must be true or false, got " + describe(n));
    }
    return n.asBoolean();
  }

  /** Field {@code name}, a string of at most {@code maxLength} characters. */
  public static String text(JsonNode parent, String name, String path, int maxLength) {
    JsonNode n = parent.get(name);
    if (n == null || !n.isTextual() || n.asText().length() > maxLength) {
      throw new IllegalArgumentException(
          path + " must be a string of at most " + maxLength + " characters, got " + describe(n));
    }
    return n.asText();
  }

  /** Field {@code name}, a list of at most {@code maxItems} values. */
  public static JsonNode list(JsonNode parent, String name, String path, int maxItems) {
    JsonNode n = parent.get(name);
    if (n == null || !n.isArray()) {
      throw new IllegalArgumentException(path + " must be a list, got " + describe(n));
    }
    if (n.size() > maxItems) {
      throw new IllegalArgumentException(
          path + " has " + n.size() + " entries; at most " + maxItems + " are read");
    }
    return n;
  }

  /** Field {@code name}, an object. */
  public static JsonNode object(JsonNode parent, String name, String path) {
    JsonNode n = parent.get(name);
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException(path + " must be an object, got " + describe(n));
    }
    return n;
  }

  /**
   * A JSON value for a message: numbers, booleans and null as written; strings, lists and objects
   * by their kind only.
   */
  public static String describe(JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "nothing (absent)";
    }
    if (n.isNumber() || n.isBoolean() || n.isNull()) {
      String s = n.toString();
      return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
    return n.isTextual() ? "a string" : n.isArray() ? "a list" : "an object";
  }
}
