package org.robostream.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates (and generates once, with scripts/tests/make-fixtures.sh) the benchmark videos.
 * Directory: system property {@code robostream.fixtures}, default java/target/fixtures.
 */
final class BenchFixtures {
  private BenchFixtures() {}

  static synchronized Path video(String name) throws IOException, InterruptedException {
    Path root = Path.of(System.getProperty("robostream.root", ".")).toAbsolutePath().normalize();
    Path dir =
        Path.of(
            System.getProperty(
                "robostream.fixtures", root.resolve("java/target/fixtures").toString()));
    Path file = dir.resolve(name);
    if (!Files.isRegularFile(file)) {
      Process p =
          new ProcessBuilder(
                  root.resolve("scripts/tests/make-fixtures.sh").toString(), dir.toString())
              .inheritIO()
              .start();
      if (p.waitFor() != 0 || !Files.isRegularFile(file)) {
        throw new IOException(
            "cannot generate fixture "
                + file
                + " (run from the repository root or set -Drobostream.root)");
      }
    }
    return file;
  }
}
