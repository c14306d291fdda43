package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.ParquetEdit;
import org.robostream.video.FrameLayout;

/**
 * Data files whose timestamps start one frame late on every row (GR00T's demo data: row f at (f +
 * 1) / fps) still pair row f with frame f; any other start, or a row that leaves the step, is
 * refused naming the file, episode and row.
 */
class TimestampConventionTest {
  static final int FPS = 20;

  @TempDir Path tmp;

  @Test
  void timestampsOneFrameLateOnEveryRowStillPairRowFWithFrameF() throws Exception {
    Path root = withTimestamps(f -> (f + 1) / (double) FPS, -1);
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds = stream(root).build()) {
      for (Batch b : ds) {
        try (b) {
          seen.addAll(PatternSamples.checked(b, ds.metadata().cameras()));
        }
      }
    }
    assertEquals(30, seen.size());
  }

  @Test
  void timestampsTwoFramesLateAreRefused() throws Exception {
    Path root = withTimestamps(f -> (f + 2) / (double) FPS, -1);
    assertRefused(root, "episode 1 row 0 has timestamp 0.1");
  }

  @Test
  void aRowThatLeavesTheLateStepIsRefused() throws Exception {
    Path root = withTimestamps(f -> (f + 1) / (double) FPS, 5);
    assertRefused(root, "episode 1 row 5 has timestamp 0.25 s");
  }

  private static void assertRefused(Path root, String row) {
    SampleException e =
        assertThrows(
            SampleException.class,
            () -> {
              try (StreamingDataset ds = stream(root).build()) {
                for (Batch b : ds) {
                  b.close();
                }
              }
            });
    assertTrue(e.getCause() instanceof DatasetException.BadMetadata, String.valueOf(e.getCause()));
    assertTrue(e.getMessage().contains("episode_000001.parquet"), e.getMessage());
    assertTrue(e.getMessage().contains(row), e.getMessage());
  }

  /**
   * A copy of the tiny v2.1 pattern dataset (3 episodes of 10 frames) whose episode 1 has {@code
   * timestamp(f)} on each row f but row {@code onTime} (none when -1), which keeps f / fps.
   */
  private Path withTimestamps(IntToDoubleFunction timestamp, int onTime) throws Exception {
    Path root = tmp.resolve("ds");
    V30MetadataTestAccess.copyTree(Datasets.tinyPatternV21(), root);
    ParquetEdit.rewrite(
        root.resolve("data/chunk-000/episode_000001.parquet"),
        t -> {
          for (int f = 0; f < t.rows(); f++) {
            t.set("timestamp", f, f == onTime ? f / (double) FPS : timestamp.applyAsDouble(f));
          }
        });
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
