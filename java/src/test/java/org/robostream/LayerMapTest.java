package org.robostream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.robostream.testing.Fixtures;

/**
 * The layer map at the top of docs/ARCHITECTURE.md is true: every package of every Maven module
 * (the aggregator's {@code <module>}s: library, synth, CLI, JMH) is on it, and each one's code
 * refers (imports, static imports, qualified names) only to packages on lower lines. Two packages
 * on one line do not know each other; so there is no cycle. Which module may use which is the poms'
 * business (the compiler sees only a module's dependencies).
 */
class LayerMapTest {
  static final String ROOT = "(root)";
  private static final Pattern REFERENCE =
      Pattern.compile("org\\.robostream\\.((?:[a-z][a-z0-9_]*\\.)*)[A-Z]");
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

  @Test
  void everyPackageDependsOnlyOnLayersBelowIt() throws IOException {
    Map<String, Integer> layers = layers(Fixtures.repoRoot().resolve("docs/ARCHITECTURE.md"));
    Map<String, Set<String>> uses = new TreeMap<>();
    for (Path sources : moduleSources(Fixtures.repoRoot())) {
      references(sources)
          .forEach(
              (pkg, targets) -> uses.computeIfAbsent(pkg, p -> new TreeSet<>()).addAll(targets));
    }
    assertEquals(
        new TreeSet<>(layers.keySet()),
        new TreeSet<>(uses.keySet()),
        "the map names exactly the packages there are");
    List<String> wrong = new ArrayList<>();
    uses.forEach(
        (from, targets) ->
            targets.forEach(
                to -> {
                  if (!to.equals(from) && layers.get(to) >= layers.get(from)) {
                    wrong.add(from + " -> " + to);
                  }
                }));
    assertEquals(List.of(), wrong, "references to the same or a higher layer");
  }

  @Test
  void theCheckSeesEveryKindOfReferenceButNotCommentsOrStrings() {
    String code =
        """
        import org.robostream.codec.Decoder;
        import static org.robostream.nativecore.Cuda.isAvailable;
        /* org.robostream.cli.Main */ // org.robostream.bench.ProgressBar
        class X { org.robostream.stream.Batch b; String s = "org.robostream.train.Checkpoint";
          char c = '"'; org.robostream.RobostreamException e; }
        """;
    assertEquals(Set.of("codec", "nativecore", "stream", ROOT), referencesIn(code));
  }

  /** Each module's {@code src/main/java/org/robostream}, from the aggregator pom. */
  static List<Path> moduleSources(Path repo) throws IOException {
    List<Path> out = new ArrayList<>();
    Matcher m = MODULE.matcher(Files.readString(repo.resolve("pom.xml")));
    while (m.find()) {
      Path sources = repo.resolve(m.group(1)).resolve("src/main/java/org/robostream");
      assertTrue(Files.isDirectory(sources), sources + " missing");
      out.add(sources);
    }
    assertTrue(out.size() > 1, "the aggregator's modules");
    return out;
  }

  /**
   * Package → line number (0 at the top) of the map's fenced block; a line that starts with a space
   * continues the description above it.
   */
  static Map<String, Integer> layers(Path doc) throws IOException {
    List<String> lines = Files.readAllLines(doc);
    int start = lines.indexOf("<!-- layer map: top to bottom; LayerMapTest checks it -->");
    assertTrue(start >= 0 && lines.get(start + 1).equals("```"), "the map's marker and fence");
    Map<String, Integer> layers = new LinkedHashMap<>();
    for (int i = start + 2; !lines.get(i).equals("```"); i++) {
      if (lines.get(i).startsWith(" ")) {
        continue; // the description of the line above goes on
      }
      String names = lines.get(i).split(" {2,}")[0];
      for (String name : names.split(", ")) {
        assertFalse(layers.containsKey(name), name + " is on the map twice");
        layers.put(name, -(i - start)); // higher on the page, higher layer
      }
    }
    return layers;
  }

  /** Package (relative to org.robostream, or (root)) → the packages its code refers to. */
  static Map<String, Set<String>> references(Path sources) throws IOException {
    Map<String, Set<String>> uses = new TreeMap<>();
    try (Stream<Path> files = Files.walk(sources)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        Path folder = sources.relativize(file.getParent());
        String pkg =
            folder.toString().isEmpty()
                ? ROOT
                : folder.toString().replace(file.getFileSystem().getSeparator(), ".");
        uses.computeIfAbsent(pkg, p -> new TreeSet<>())
            .addAll(referencesIn(Files.readString(file)));
      }
    }
    return uses;
  }

  static Set<String> referencesIn(String code) {
    Set<String> out = new TreeSet<>();
    Matcher m = REFERENCE.matcher(withoutCommentsAndLiterals(code));
    while (m.find()) {
      String pkg = m.group(1);
      out.add(pkg.isEmpty() ? ROOT : pkg.substring(0, pkg.length() - 1));
    }
    return out;
  }

  /** Java source with comments, string, text-block and char literals blanked out. */
  static String withoutCommentsAndLiterals(String code) {
    StringBuilder out = new StringBuilder(code.length());
    int i = 0;
    while (i < code.length()) {
      if (code.startsWith("//", i)) {
        i = after(code, "\n", i + 2);
      } else if (code.startsWith("/*", i)) {
        i = after(code, "*/", i + 2);
      } else if (code.startsWith("\"\"\"", i)) {
        i = after(code, "\"\"\"", i + 3);
      } else if (code.charAt(i) == '"' || code.charAt(i) == '\'') {
        char quote = code.charAt(i++);
        while (i < code.length() && code.charAt(i) != quote) {
          i += code.charAt(i) == '\\' ? 2 : 1;
        }
        i++;
      } else {
        out.append(code.charAt(i++));
        continue;
      }
      out.append(' ');
    }
    return out.toString();
  }

  /** The index just past the next {@code token} from {@code from}, or the end of the code. */
  private static int after(String code, String token, int from) {
    int at = code.indexOf(token, from);
    return at < 0 ? code.length() : at + token.length();
  }
}
