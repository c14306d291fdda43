package org.robostream.dataset;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * JSON and JSON-lines metadata files, with typed errors naming the file. Sizes are checked before
 * reading, and a parse error names line, column and the kind of problem but never quotes the text:
 * a metadata path may be a link to a file that is not metadata at all. Stateless.
 */
final class MetadataFiles {
  static final ObjectMapper JSON = new ObjectMapper();

  /** info.json, stats.json: real ones are kilobytes. */
  static final long MAX_JSON_BYTES = 64L << 20;

  /** episodes.jsonl, episodes_stats.jsonl: per-episode statistics of large datasets. */
  static final long MAX_JSONL_BYTES = 512L << 20;

  private MetadataFiles() {}

  /** A JSON document; a {@link DatasetException.MissingFile} when absent. */
  static JsonNode json(Path file) {
    requireReadable(file, MAX_JSON_BYTES);
    try {
      return JSON.readTree(file.toFile());
    } catch (JsonProcessingException e) {
      throw new DatasetException.BadMetadata(file.toString(), problem(e, 0));
    } catch (IOException e) {
      throw cannotRead(file, e);
    }
  }

  /** A JSON file that may be absent (stats.json). */
  static Optional<JsonNode> optionalJson(Path file) {
    return Files.exists(file) ? Optional.of(json(file)) : Optional.empty();
  }

  /** The rows of a JSON-lines file, blank lines skipped. */
  static List<JsonNode> jsonl(Path file) {
    requireReadable(file, MAX_JSONL_BYTES);
    List<JsonNode> rows = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      int number = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        try {
          rows.add(JSON.readTree(line));
        } catch (JsonProcessingException e) {
          throw new DatasetException.BadMetadata(file.toString(), problem(e, number));
        }
      }
    } catch (IOException e) {
      throw cannotRead(file, e);
    }
    return rows;
  }

  /**
   * A whole number ({@code 30} or {@code 30.0}) in [min, max]: integers written by Python are
   * exact; a fraction, a string or anything else is refused, never truncated.
   *
   * @param what the field, as the message should name it
   */
  static long wholeNumber(JsonNode n, String what, String file, long min, long max) {
    boolean whole =
        n != null
            && (n.isIntegralNumber()
                || (n.isFloatingPointNumber() && n.asDouble() == Math.rint(n.asDouble())));
    if (!whole || !n.canConvertToLong() || n.asLong() < min || n.asLong() > max) {
      throw new DatasetException.BadMetadata(
          file,
          what + " must be a whole number from " + min + " to " + max + ", got " + describe(n));
    }
    return n.asLong();
  }

  /**
   * A JSON value for a message: numbers, booleans and null as written; strings, lists and objects
   * by their kind only (their text may be anything).
   */
  static String describe(JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "nothing (absent)";
    }
    if (n.isNumber() || n.isBoolean() || n.isNull()) {
      return n.toString();
    }
    return n.isTextual() ? "a string" : n.isArray() ? "a list" : "an object";
  }

  private static void requireReadable(Path file, long maxBytes) {
    if (!Files.exists(file)) {
      throw new DatasetException.MissingFile(file.toString(), "metadata file does not exist");
    }
    if (!Files.isRegularFile(file)) {
      throw new DatasetException.BadMetadata(file.toString(), "is not a regular file");
    }
    long size;
    try {
      size = Files.size(file);
    } catch (IOException e) {
      throw cannotRead(file, e);
    }
    if (size > maxBytes) {
      throw new DatasetException.BadMetadata(
          file.toString(),
          "is " + size + " bytes; metadata" + " files over " + maxBytes + " bytes are refused");
    }
  }

  /** Where and what, never the text: Jackson's own messages quote the offending token. */
  private static String problem(JsonProcessingException e, int line) {
    JsonLocation at = e.getLocation();
    String where =
        at == null
            ? ""
            : " at line " + (line > 0 ? line : at.getLineNr()) + ", column " + at.getColumnNr();
    String kind =
        e instanceof JsonEOFException
            ? "the text ends inside a value"
            : e instanceof StreamConstraintsException
                ? "a value exceeds the parser's limits (nesting, number or string length)"
                : "unexpected character or token";
    return "not valid JSON" + where + " (" + kind + ")";
  }

  private static DatasetException cannotRead(Path file, IOException e) {
    if (e instanceof NoSuchFileException) {
      return new DatasetException.MissingFile(file.toString(), "metadata file does not exist");
    }
    return new DatasetException.BadMetadata(
        file.toString(), "cannot be read (" + e.getClass().getSimpleName() + ")", e);
  }
}
