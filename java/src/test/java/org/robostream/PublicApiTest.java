package org.robostream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.robostream.testing.Fixtures;

/**
 * The library's public surface is what docs/ARCHITECTURE.md says it is: the table under "Public
 * API" names exactly the packages {@code module-info} exports, each with the number of public
 * top-level types it has. A package exported, or a public type added or removed, without the table
 * following fails here, so the surface cannot grow unseen.
 */
class PublicApiTest {
  private static final Pattern EXPORT = Pattern.compile("(?m)^\\s*exports\\s+([a-z.]+)\\s*;");
  private static final Pattern PUBLIC_TYPE =
      Pattern.compile(
          "(?m)^public\\s+(?:(?:final|abstract|sealed|non-sealed|static)\\s+)*"
              + "(?:class|interface|record|enum|@interface)\\s");
  private static final Pattern ROW = Pattern.compile("^\\|\\s*`([a-z.]+)`\\s*\\|\\s*(\\d+)\\s*\\|");

  @Test
  void theDocumentedTableIsTheExportListWithItsPublicTypeCounts() throws IOException {
    Path sources = Fixtures.repoRoot().resolve("java/src/main/java");
    Map<String, Integer> actual = new TreeMap<>();
    Matcher m = EXPORT.matcher(Files.readString(sources.resolve("module-info.java")));
    while (m.find()) {
      actual.put(m.group(1), publicTypes(sources.resolve(m.group(1).replace('.', '/'))));
    }
    assertTrue(actual.size() >= 5, "exports found: " + actual);
    assertEquals(documented(), actual, "docs/ARCHITECTURE.md, \"Public API\" vs the code");
  }

  /** Public top-level types of the package in {@code dir} (not its subpackages). */
  static int publicTypes(Path dir) throws IOException {
    int n = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (name.endsWith(".java")
            && !name.equals("package-info.java")
            && PUBLIC_TYPE.matcher(Files.readString(f)).find()) {
          n++;
        }
      }
    }
    return n;
  }

  /** Package to count, from the table after the "Public API" heading. */
  private static Map<String, Integer> documented() throws IOException {
    Map<String, Integer> table = new TreeMap<>();
    boolean in = false;
    for (String line : Files.readAllLines(Fixtures.repoRoot().resolve("docs/ARCHITECTURE.md"))) {
      if (line.startsWith("## ")) {
        in = line.equals("## Public API");
        continue;
      }
      Matcher row = ROW.matcher(line);
      if (in && row.find()) {
        table.put(row.group(1), Integer.parseInt(row.group(2)));
      }
    }
    return table;
  }

  @Test
  void theCountSeesEveryKindOfPublicTypeButNotNestedOrPackagePrivateOnes() throws IOException {
    Path dir = Files.createTempDirectory("api");
    Files.writeString(dir.resolve("A.java"), "package x;\npublic final class A {}\n");
    Files.writeString(dir.resolve("B.java"), "package x;\n/** doc */\npublic record B(int x) {}\n");
    Files.writeString(dir.resolve("C.java"), "package x;\npublic sealed interface C {}\n");
    Files.writeString(
        dir.resolve("D.java"), "package x;\nfinal class D {\n  public class E {}\n}\n");
    Files.writeString(dir.resolve("package-info.java"), "/** p */\npackage x;\n");
    assertEquals(3, publicTypes(dir));
  }
}
