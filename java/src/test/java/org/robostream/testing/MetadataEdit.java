package org.robostream.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Edits a copied dataset's JSON metadata in place, for tests of bad metadata. Stateless. */
public final class MetadataEdit {
  private static final ObjectMapper JSON = new ObjectMapper();

  private MetadataEdit() {}

  /** Changes {@code meta/info.json}. */
  public static void info(Path root, Consumer<ObjectNode> change) throws IOException {
    Path info = root.resolve("meta/info.json");
    ObjectNode node = (ObjectNode) JSON.readTree(info.toFile());
    change.accept(node);
    JSON.writeValue(info.toFile(), node);
  }

  /**
   * Sets {@code field} of episode {@code episode}'s line of a v2.1 {@code meta/episodes.jsonl} (as
   * the synthetic writer writes it: compact, {@code episode_index} first) to {@code json}, written
   * as is ({@code 10.5}, {@code "10"}, {@code null}).
   */
  public static void episodeField(Path root, int episode, String field, String json)
      throws IOException {
    Path episodes = root.resolve("meta/episodes.jsonl");
    List<String> lines = new ArrayList<>(Files.readAllLines(episodes));
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("{\"episode_index\":" + episode + ",")) {
        String value = "(-?[0-9.eE+]+|null|\"[^\"]*\")";
        lines.set(
            i,
            lines
                .get(i)
                .replaceFirst(
                    "\"" + field + "\":" + value,
                    java.util.regex.Matcher.quoteReplacement("\"" + field + "\":" + json)));
        Files.write(episodes, lines);
        return;
      }
    }
    throw new IllegalArgumentException("no line of episode " + episode + " in " + episodes);
  }
}
