package org.robostream.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** JSON and JSON-lines metadata files, with typed errors naming the file. Stateless. */
final class MetadataFiles {
  static final ObjectMapper JSON = new ObjectMapper();

  private MetadataFiles() {}

  static List<JsonNode> jsonl(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (NoSuchFileException e) {
      throw new DatasetException.MissingFile(file.toString(), "metadata file does not exist");
    } catch (IOException e) {
      throw new DatasetException.BadMetadata(file.toString(), "cannot read: " + e.getMessage(), e);
    }
    List<JsonNode> rows = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty()) {
        continue;
      }
      try {
        rows.add(JSON.readTree(line));
      } catch (IOException e) {
        throw new DatasetException.BadMetadata(file.toString(), "line " + (i + 1)
            + " is not JSON: " + e.getMessage(), e);
      }
    }
    return rows;
  }

  /** A JSON file that may be absent (stats.json). */
  static Optional<JsonNode> optionalJson(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readTree(file.toFile()));
    } catch (IOException e) {
      throw new DatasetException.BadMetadata(file.toString(), "not valid JSON: " + e.getMessage(),
          e);
    }
  }

  /** Integer field of a JSON row; a {@link DatasetException.BadMetadata} when absent. */
  static long requiredLong(JsonNode row, String field, Path file, int line) {
    JsonNode n = row.get(field);
    if (n == null || !n.canConvertToLong()) {
      throw new DatasetException.BadMetadata(file.toString(), "row " + line + " has no integer "
          + field);
    }
    return n.asLong();
  }
}
