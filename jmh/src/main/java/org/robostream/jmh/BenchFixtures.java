package org.robostream.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.robostream.dataset.synth.SyntheticDatasetSpec;
import org.robostream.dataset.synth.SyntheticDatasetSpec.Content;
import org.robostream.dataset.synth.SyntheticDatasetSpec.Layout;
import org.robostream.dataset.synth.SyntheticDatasetWriter;
import org.robostream.dataset.synth.VideoCodecChoice;

/**
 * Locates (and generates once) what the benchmarks read: the test videos (with
 * scripts/tests/make-fixtures.sh, in system property {@code robostream.fixtures}, default
 * java/target/fixtures) and the synthetic datasets (in java/target/jmh-datasets).
 */
final class BenchFixtures {
  private BenchFixtures() {}

  /** The repository root: system property {@code robostream.root}, default the working folder. */
  static Path root() {
    return Path.of(System.getProperty("robostream.root", ".")).toAbsolutePath().normalize();
  }

  static synchronized Path video(String name) throws IOException, InterruptedException {
    Path root = root();
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

  /**
   * v3.0 dataset, 16 episodes of 120 frames at 30 fps, one 256x256 H.264 camera of noisy
   * camera-like content (GOP 30), 6-dimensional state and action, 2 tasks.
   */
  static Path cameraDataset() throws IOException {
    return dataset("camera-256", 1, 256);
  }

  /** As {@link #cameraDataset()} without a camera: what the table part of a batch costs alone. */
  static Path tableDataset() throws IOException {
    return dataset("table-only", 0, 64);
  }

  private static synchronized Path dataset(String name, int cameras, int side) throws IOException {
    Path base = root().resolve("java/target/jmh-datasets");
    Path dir = base.resolve(name);
    SyntheticDatasetSpec spec =
        new SyntheticDatasetSpec(
            dir,
            16,
            120,
            0.0,
            cameras,
            side,
            side,
            30,
            VideoCodecChoice.H264,
            30,
            -1,
            Layout.V30,
            100,
            500,
            Content.CAMERA,
            6,
            2);
    // The marker holds the spec: a changed spec writes the dataset again.
    Path marker = base.resolve(name + ".complete");
    if (Files.exists(marker) && Files.readString(marker).equals(spec.toString())) {
      return dir;
    }
    Files.deleteIfExists(marker);
    deleteTree(dir);
    Files.createDirectories(base);
    SyntheticDatasetWriter.write(spec);
    Files.writeString(marker, spec.toString());
    return dir;
  }

  /** Removes {@code dir} and everything under it, if it exists. */
  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
