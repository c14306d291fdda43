package org.robostream;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.robostream.testing.Fixtures;

/**
 * README.md and docs/LIBRARY.md (the README's library page) show the library snippets exactly as
 * the tests compile and run them: every block between {@code // README <name>: begin} / {@code end}
 * (or {@code // README begin: <name>} / {@code // README end}) markers in the test sources must
 * appear, line for line with indentation aside, inside one of their java code blocks.
 */
class ReadmeMatchesSnippetsTest {
  private static final Pattern BEGIN =
      Pattern.compile("//\\s*README (?:(\\S[^:]*): begin|begin: (.+))");
  private static final Pattern END = Pattern.compile("//\\s*README (?:\\S[^:]*: )?end");

  /** Snippet name → its lines (stripped), from every test source with markers. */
  private static Map<String, List<String>> snippets(Path root) throws IOException {
    Map<String, List<String>> out = new LinkedHashMap<>();
    List<Path> sources;
    try (Stream<Path> walk = Files.walk(root)) {
      sources =
          walk.filter(p -> p.toString().endsWith(".java"))
              .filter(p -> p.toString().contains("/src/test/"))
              .filter(p -> !p.getFileName().toString().equals("ReadmeMatchesSnippetsTest.java"))
              .toList();
    }
    for (Path source : sources) {
      List<String> current = null;
      String name = null;
      for (String line : Files.readAllLines(source)) {
        Matcher begin = BEGIN.matcher(line.strip());
        if (begin.matches()) {
          name =
              source.getFileName()
                  + " / "
                  + (begin.group(1) != null ? begin.group(1) : begin.group(2)).strip();
          current = new ArrayList<>();
        } else if (current != null && END.matcher(line.strip()).matches()) {
          out.put(name, current);
          current = null;
        } else if (current != null) {
          current.add(line.strip());
        }
      }
    }
    return out;
  }

  /** The stripped lines of every ```java block of the README, one list per block. */
  private static List<List<String>> javaBlocks(Path readme) throws IOException {
    List<List<String>> blocks = new ArrayList<>();
    List<String> current = null;
    for (String line : Files.readAllLines(readme)) {
      if (current == null && line.strip().equals("```java")) {
        current = new ArrayList<>();
      } else if (current != null && line.strip().equals("```")) {
        blocks.add(current);
        current = null;
      } else if (current != null) {
        current.add(line.strip());
      }
    }
    return blocks;
  }

  @Test
  void everyTestedSnippetIsShownAsItIsInTheReadme() throws IOException {
    Path root = Fixtures.repoRoot();
    Map<String, List<String>> snippets = snippets(root);
    assertTrue(snippets.size() >= 5, "README snippets found in the tests: " + snippets.keySet());
    List<List<String>> blocks = new ArrayList<>(javaBlocks(root.resolve("README.md")));
    blocks.addAll(javaBlocks(root.resolve("docs/LIBRARY.md")));
    for (Map.Entry<String, List<String>> s : snippets.entrySet()) {
      boolean shown =
          blocks.stream().anyMatch(b -> java.util.Collections.indexOfSubList(b, s.getValue()) >= 0);
      assertTrue(
          shown,
          "neither README.md nor docs/LIBRARY.md shows the snippet "
              + s.getKey()
              + " as tested:\n"
              + String.join("\n", s.getValue()));
    }
  }
}
