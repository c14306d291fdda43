package org.robostream.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a benchmark result as {@code <source>_<mode>_bs<B>_w<W>_<decode>.json} (indent 2) and a
 * {@code .csv} of the same name (header + one row; nested values JSON-encoded). Stateless.
 */
public final class ResultFiles {
  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ResultFiles() {}

  public static String baseName(
      String source, String mode, int batchSize, int workers, String decode) {
    return source + "_" + mode + "_bs" + batchSize + "_w" + workers + "_" + decode;
  }

  /** Writes both files; returns their paths. */
  public static List<Path> write(Path dir, String baseName, Map<String, Object> result)
      throws IOException {
    Files.createDirectories(dir);
    Path json = dir.resolve(baseName + ".json");
    JSON.writeValue(json.toFile(), result);
    Path csv = dir.resolve(baseName + ".csv");
    List<String> header = new ArrayList<>(result.keySet());
    List<String> row = new ArrayList<>();
    for (String key : header) {
      Object v = result.get(key);
      String text =
          v == null
              ? ""
              : v instanceof Map || v instanceof List
                  ? new ObjectMapper().writeValueAsString(v)
                  : String.valueOf(v);
      row.add(csvCell(text));
    }
    Files.writeString(csv, String.join(",", header) + "\n" + String.join(",", row) + "\n");
    return List.of(json, csv);
  }

  static String csvCell(String text) {
    if (text.contains(",") || text.contains("\"") || text.contains("\n")) {
      return "\"" + text.replace("\"", "\"\"") + "\"";
    }
    return text;
  }
}
