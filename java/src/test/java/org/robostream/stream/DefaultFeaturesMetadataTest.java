package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.Feature;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;
import org.robostream.testing.MetadataEdit;
import org.robostream.testing.ParquetEdit;
import org.robostream.testing.StderrLines;
import org.robostream.video.FrameLayout;

/**
 * Datasets whose info.json leaves out LeRobot's default features ({@code timestamp}, {@code
 * frame_index}, {@code episode_index}, {@code index}, {@code task_index}) while their data files
 * hold the columns load as LeRobot loads them: each omitted default is read as LeRobot declares it,
 * listed after the declared features in LeRobot's order, and logged once. A data file without one
 * of them is still refused, naming it. On the tiny v2.1 pattern dataset and on a copy of the real
 * CR5 arm's dataset (skipped with a warning where the shared datasets are missing).
 */
class DefaultFeaturesMetadataTest {
  static final List<String> DEFAULTS =
      List.of("timestamp", "frame_index", "episode_index", "index", "task_index");

  @TempDir Path tmp;

  @Test
  void everyDefaultLeftOutIsReadAsLeRobotDeclaresItAndSaidOnce() throws Exception {
    Path root = copy(Datasets.tinyPatternV21());
    List<String> declared = withoutDefaults(root, DEFAULTS);
    try (StderrLines err = new StderrLines();
        StreamingDataset ds = stream(root).build()) {
      List<String> features = List.copyOf(ds.metadata().info().features().keySet());
      List<String> expected = new ArrayList<>(declared);
      expected.addAll(DEFAULTS);
      assertEquals(expected, features, "the declared ones, then LeRobot's defaults in its order");
      assertEquals(DEFAULTS, ds.metadata().info().assumedDefaults());
      Feature timestamp = ds.metadata().info().features().get("timestamp");
      assertEquals("float32", timestamp.dtype());
      assertArrayEquals(new int[] {1}, timestamp.shape());
      assertEquals("int64", ds.metadata().info().features().get("frame_index").dtype());
      Set<Long> seen = new HashSet<>();
      for (Batch b : ds) {
        try (b) {
          double[] t = b.doubles("timestamp");
          long[] index = b.longs("index");
          long[] task = b.longs("task_index");
          List<Long> samples = PatternSamples.checked(b, ds.metadata().cameras());
          for (int i = 0; i < samples.size(); i++) {
            int e = Samples.episode(samples.get(i));
            int f = Samples.frame(samples.get(i));
            assertEquals(f / 20.0, t[i], 1e-6);
            assertEquals(ds.metadata().episode(e).datasetFromIndex() + f, index[i]);
            assertTrue(ds.metadata().tasks().containsKey((int) task[i]), "a listed task");
            assertTrue(seen.add(samples.get(i)));
          }
        }
      }
      assertEquals(30, seen.size());
      List<String> said = err.containing("info.json leaves out LeRobot's default features");
      assertEquals(1, said.size(), "said once");
      assertTrue(said.get(0).contains("frame_index int64 [1]"), said.get(0));
      assertTrue(said.get(0).contains("timestamp float32 [1]"), said.get(0));
    }
  }

  @Test
  void defaultsLeftOutAreAddedInLeRobotsOrderAfterTheDeclaredOnes() throws Exception {
    Path root = copy(Datasets.tinyPatternV21());
    List<String> declared = withoutDefaults(root, List.of("task_index", "timestamp"));
    try (StreamingDataset ds = stream(root).build()) {
      List<String> expected = new ArrayList<>(declared);
      expected.addAll(List.of("timestamp", "task_index"));
      assertEquals(expected, List.copyOf(ds.metadata().info().features().keySet()));
      assertEquals(List.of("timestamp", "task_index"), ds.metadata().info().assumedDefaults());
    }
  }

  @Test
  void aDataFileWithoutAnAssumedDefaultIsRefusedNamingIt() throws Exception {
    Path root = copy(Datasets.tinyPatternV21());
    withoutDefaults(root, List.of("frame_index"));
    Path second = root.resolve("data/chunk-000/episode_000002.parquet");
    ParquetEdit.rewrite(second, t -> t.drop("frame_index"));
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> stream(root).build());
    assertTrue(e.file().endsWith("episode_000002.parquet"), e.file());
    assertTrue(
        e.getMessage()
            .contains(
                "has no column frame_index, a LeRobot default feature that info.json leaves out"
                    + " and other data files have (read as int64 [1])"),
        e.getMessage());
  }

  @Test
  void dataFilesWithoutAnEpisodeIndexAreStillRefused() throws Exception {
    Path root = copy(Datasets.tinyPatternV21());
    withoutDefaults(root, List.of("episode_index"));
    try (Stream<Path> files = Files.list(root.resolve("data/chunk-000"))) {
      for (Path file : files.toList()) {
        ParquetEdit.rewrite(file, t -> t.drop("episode_index"));
      }
    }
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> stream(root).build());
    assertTrue(e.getMessage().contains("has no episode_index column"), e.getMessage());
  }

  @Test
  void aCopyOfTheRealCr5DatasetWithoutItsDefaultsStreamsTheSameRows() throws Exception {
    Path original = Fixtures.sharedDataset(Fixtures.CR5);
    Path root = copy(original);
    withoutDefaults(root, DEFAULTS);
    List<String> withDefaults = rows(StreamingDataset.builder(original));
    try (StreamingDataset ds = StreamingDataset.builder(root).episodes("0-1").build()) {
      assertEquals(DEFAULTS, ds.metadata().info().assumedDefaults());
      assertEquals(
          List.of("observation.state", "observation.images.top", "action"),
          List.copyOf(ds.metadata().info().features().keySet()).subList(0, 3));
      assertEquals(1, ds.timestamps().warnings().size(), "its timestamps are read, as recorded");
    }
    assertEquals(withDefaults, rows(StreamingDataset.builder(root)));
  }

  /** Episodes 0-1 in order: each row's index columns and its frame's position in its file. */
  private static List<String> rows(StreamingDataset.Builder builder) {
    List<String> out = new ArrayList<>();
    try (StreamingDataset ds =
        builder
            .episodes("0-1")
            .shuffle(false)
            .batchSize(32)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      for (Batch b : ds) {
        try (b) {
          for (int i = 0; i < b.size(); i++) {
            out.add(
                b.longs("episode_index")[i]
                    + " "
                    + b.longs("frame_index")[i]
                    + " "
                    + b.longs("index")[i]
                    + " "
                    + b.longs("task_index")[i]
                    + " "
                    + b.doubles("timestamp")[i]);
          }
        }
      }
    }
    assertEquals(412, out.size());
    return out;
  }

  /**
   * Removes {@code defaults} from {@code root}'s info.json; returns the features left, in order.
   */
  private static List<String> withoutDefaults(Path root, List<String> defaults) throws Exception {
    List<String> left = new ArrayList<>();
    MetadataEdit.info(
        root,
        info -> {
          ObjectNode features = (ObjectNode) info.path("features");
          defaults.forEach(features::remove);
          features.fieldNames().forEachRemaining(left::add);
        });
    return left;
  }

  private Path copy(Path dataset) throws Exception {
    Path root = tmp.resolve("ds");
    V30MetadataTestAccess.copyTree(dataset, root);
    return root;
  }

  private static StreamingDataset.Builder stream(Path root) {
    return StreamingDataset.builder(root)
        .batchSize(4)
        .shuffle(false)
        .returnUint8(true)
        .layout(FrameLayout.HWC);
  }
}
