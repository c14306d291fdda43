package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeTimestamps;
import org.robostream.dataset.TimestampReport;
import org.robostream.dataset.TimestampRule;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.ParquetEdit;
import org.robostream.video.FrameLayout;

/**
 * Rows pair with frames by position (row f, frame f of the episode's video, which holds exactly its
 * rows' frames at a constant rate), whatever the timestamp column says: one frame late on every row
 * (GR00T's demo data), two frames late, or as a robot recorded them (drifting, a row leaving the
 * step). Each streams with every frame the one its row names, the timestamp column delivered as
 * written, and the dataset's report says what the timestamps keep. {@link TimestampRule#STRICT}
 * refuses recorded timestamps when the dataset is built, naming the row and the rule that lets them
 * through. The seed: the tiny v2.1 pattern dataset, 3 episodes of 10 frames at 20 fps; episode 1's
 * timestamps are rewritten.
 */
class TimestampConventionTest {
  static final int FPS = 20;

  @TempDir Path tmp;

  @Test
  void timestampsOneFrameLateOnEveryRowStillPairRowFWithFrameF() throws Exception {
    Path root = withTimestamps(f -> (f + 1) / (double) FPS, -1);
    TimestampReport report = streamsEveryFrameAsWritten(root, f -> (f + 1) / (double) FPS);
    assertEquals(EpisodeTimestamps.Convention.FRAME_END, report.episode(1).convention());
    assertEquals(EpisodeTimestamps.Convention.FRAME_START, report.episode(0).convention());
    assertTrue(report.summary().contains("1 of 3 episodes one frame late"), report.summary());
    assertTrue(!report.recorded(), "one frame late is a convention, not recorded timestamps");
  }

  @Test
  void timestampsTwoFramesLateStreamByPositionAndAreReportedAsRecorded() throws Exception {
    Path root = withTimestamps(f -> (f + 2) / (double) FPS, -1);
    TimestampReport report = streamsEveryFrameAsWritten(root, f -> (f + 2) / (double) FPS);
    EpisodeTimestamps e1 = report.episode(1);
    assertEquals(EpisodeTimestamps.Convention.RECORDED, e1.convention());
    assertEquals(0.1, e1.maxDriftSeconds(), 1e-6);
    assertTrue(
        report.summary().startsWith("timestamps: 1 of 3 episodes as recorded, up to 0.100 s"),
        report.summary());
  }

  @Test
  void aRowThatLeavesTheLateStepStreamsAndIsReported() throws Exception {
    Path root = withTimestamps(f -> (f + 1) / (double) FPS, 5);
    IntToDoubleFunction written = f -> f == 5 ? f / (double) FPS : (f + 1) / (double) FPS;
    TimestampReport report = streamsEveryFrameAsWritten(root, written);
    assertEquals(EpisodeTimestamps.Convention.RECORDED, report.episode(1).convention());
    assertEquals(5, report.episode(1).firstOffRow(), "row 5 leaves the step row 0 keeps");
  }

  @Test
  void jitteredTimestampsAsARobotRecordsThemStreamEveryFrameByPosition() throws Exception {
    // More than half a frame off, differently per row, as cr5-v21-sample's rows are.
    IntToDoubleFunction recorded = f -> f / (double) FPS + (f % 3 == 1 ? 0.031 : -0.027 * (f % 2));
    Path root = withTimestamps(recorded, -1);
    TimestampReport report = streamsEveryFrameAsWritten(root, recorded);
    assertEquals(EpisodeTimestamps.Convention.RECORDED, report.episode(1).convention());
    assertEquals(1, report.count(EpisodeTimestamps.Convention.RECORDED));
    assertEquals(2, report.count(EpisodeTimestamps.Convention.FRAME_START));
  }

  @Test
  void strictRefusesRecordedTimestampsWhenBuiltNamingTheRowAndTheWayThrough() throws Exception {
    Path root = withTimestamps(f -> (f + 1) / (double) FPS, 5);
    DatasetException.BadMetadata e =
        assertThrows(
            DatasetException.BadMetadata.class,
            () -> stream(root).timestamps(TimestampRule.STRICT).build());
    assertTrue(e.file().endsWith("episode_000001.parquet"), e.file());
    assertTrue(e.getMessage().contains("episode 1 row 5"), e.getMessage());
    assertTrue(e.getMessage().contains("timestamps(TimestampRule.POSITION)"), e.getMessage());
    assertTrue(e.getMessage().contains("--timestamps position"), e.getMessage());
  }

  @Test
  void strictAcceptsTheOneFrameLateConvention() throws Exception {
    Path root = withTimestamps(f -> (f + 1) / (double) FPS, -1);
    try (StreamingDataset ds = stream(root).timestamps(TimestampRule.STRICT).build()) {
      assertEquals(EpisodeTimestamps.Convention.FRAME_END, ds.timestamps().episode(1).convention());
    }
  }

  /**
   * Streams {@code root}'s epoch and checks that every sample's camera frame is the one its row
   * names and that episode 1's timestamps are delivered as {@code written} wrote them (the others
   * at f / fps); returns the dataset's timestamp report, which stats() also carries.
   */
  private static TimestampReport streamsEveryFrameAsWritten(Path root, IntToDoubleFunction written)
      throws Exception {
    Set<Long> seen = new HashSet<>();
    Map<Long, Double> timestamps = new HashMap<>();
    try (StreamingDataset ds = stream(root).build()) {
      for (Batch b : ds) {
        try (b) {
          double[] t = b.doubles("timestamp");
          var samples = PatternSamples.checked(b, ds.metadata().cameras());
          for (int i = 0; i < samples.size(); i++) {
            assertTrue(seen.add(samples.get(i)), "twice: " + Samples.toString(samples.get(i)));
            timestamps.put(samples.get(i), t[i]);
          }
        }
      }
      assertEquals(30, seen.size());
      for (int f = 0; f < 10; f++) {
        assertEquals(written.applyAsDouble(f), timestamps.get(Samples.of(1, f)), 1e-6);
        assertEquals(f / (double) FPS, timestamps.get(Samples.of(2, f)), 1e-6);
      }
      assertEquals(ds.timestamps().summary(), ds.stats().timestamps().summary());
      return ds.timestamps();
    }
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
