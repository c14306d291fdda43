package org.robostream.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.testing.Datasets;

/** The statistics a policy normalises with, read as input: a negative std is refused. */
class FeatureStatsTest {
  @Test
  void aNegativeStdIsRefusedNamingTheFileAndElement(@TempDir Path tmp) throws IOException {
    Path root = tmp.resolve("ds");
    try (var files = Files.walk(Datasets.patternV30())) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path to = root.resolve(Datasets.patternV30().relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(to);
        } else {
          Files.copy(f, to);
        }
      }
    }
    FeatureStats good = FeatureStats.of(LeRobotMetadata.open(root, Optional.empty()), "action", 4);
    assertEquals("action", good.key());
    Path stats = root.resolve("meta/stats.json");
    String text = Files.readString(stats);
    String altered = text.replaceFirst("\"std\" : \\[ ", "\"std\" : [ -");
    assertTrue(!altered.equals(text), "a std to negate");
    Files.writeString(stats, altered);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> FeatureStats.of(LeRobotMetadata.open(root, Optional.empty()), "action", 4));
    assertTrue(e.getMessage().contains("stats.json: action.std[0] is -"), e.getMessage());
    assertTrue(e.getMessage().contains("never negative"), e.getMessage());
  }
}
