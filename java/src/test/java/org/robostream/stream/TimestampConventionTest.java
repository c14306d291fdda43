package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.robostream.stream.TimestampTwins.FPS;
import static org.robostream.stream.TimestampTwins.FRAME;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeTimestamps;
import org.robostream.dataset.TimestampReport;
import org.robostream.dataset.TimestampRule;
import org.robostream.testing.StderrLines;

/**
 * {@link TimestampRule#POSITION} and {@link TimestampRule#STRICT} on the synthetic twins of each
 * shape of timestamp column ({@link TimestampTwins}: episode 1 rewritten). By position, row f shows
 * frame f of its episode's video whatever the timestamp column says: one frame late on every row
 * (GR00T's demo data), two frames late, or as a robot recorded them. Each streams with every frame
 * the one its row names, the timestamp column delivered as written; the report says what the
 * timestamps keep, and one warning says where LeRobot's rule would show other frames. STRICT
 * refuses every row whose timestamp is not its frame's time within the tolerance, when built.
 */
class TimestampConventionTest {
  @TempDir Path tmp;

  @Test
  void timestampsOneFrameLateOnEveryRowStillPairRowFWithFrameFAndWarnOnce() throws Exception {
    Path root = TimestampTwins.write(tmp.resolve("ds"), TimestampTwins.ONE_FRAME_LATE);
    TimestampReport report = streamsEveryFrameAsWritten(root, TimestampTwins.ONE_FRAME_LATE);
    assertEquals(EpisodeTimestamps.Convention.FRAME_END, report.episode(1).convention());
    assertEquals(EpisodeTimestamps.Convention.FRAME_START, report.episode(0).convention());
    assertTrue(report.summary().contains("1 of 3 episodes one frame late"), report.summary());
    assertTrue(!report.recorded(), "one frame late is a convention, not recorded timestamps");
    EpisodeTimestamps.LeRobotChoice lerobot = report.episode(1).lerobot();
    assertEquals(10, lerobot.rowsElsewhere(), "every row: frame k + 1");
    assertEquals(1, lerobot.rowsOutside(), "the last row: past the episode");
    assertEquals(1, lerobot.maxOffset());
    assertTrue(report.episode(0).lerobot().same());
    assertEquals(1, report.warnings().size(), report.warnings().toString());
    assertWarning(
        report.warnings().get(0),
        "timestamps position (the default) shows row k of an episode with frame k of its video",
        "Rows stamped one frame late ((frame_index + 1) / fps) in 1 of 3 episodes (1): LeRobot"
            + " would show frame k+1 for row k, and fail on each episode's last row.",
        "timestamps=\"lerobot\" (Python), TimestampRule.LEROBOT (Java), --timestamps lerobot");
  }

  @Test
  void timestampsTwoFramesLateStreamByPositionAndAreReportedAsRecorded() throws Exception {
    IntToDoubleFunction twoLate = f -> (f + 2) * FRAME;
    Path root = TimestampTwins.write(tmp.resolve("ds"), twoLate);
    TimestampReport report = streamsEveryFrameAsWritten(root, twoLate);
    EpisodeTimestamps e1 = report.episode(1);
    assertEquals(EpisodeTimestamps.Convention.RECORDED, e1.convention());
    assertEquals(0.1, e1.maxDriftSeconds(), 1e-6);
    assertTrue(
        report.summary().startsWith("timestamps: 1 of 3 episodes as recorded, up to 0.100 s"),
        report.summary());
    assertWarning(
        report.warnings().get(0),
        "Rows as recorded in 1 of 3 episodes (1): LeRobot would show another frame on 10 rows,"
            + " up to 2 frames after the row's own (episode 1 row 0, timestamp 0.100 s,"
            + " frame_index / fps 0.000 s), and fail on 2 rows whose timestamps fall outside"
            + " their episode's frames.");
  }

  @Test
  void aRowThatLeavesTheLateStepStreamsAndIsReported() throws Exception {
    IntToDoubleFunction written = f -> f == 5 ? f * FRAME : (f + 1) * FRAME;
    Path root = TimestampTwins.write(tmp.resolve("ds"), written);
    TimestampReport report = streamsEveryFrameAsWritten(root, written);
    assertEquals(EpisodeTimestamps.Convention.RECORDED, report.episode(1).convention());
    assertEquals(5, report.episode(1).firstOffRow(), "row 5 leaves the step row 0 keeps");
    assertEquals(9, report.episode(1).lerobot().rowsElsewhere(), "all but row 5");
  }

  @Test
  void jitteredTimestampsAsARobotRecordsThemStreamEveryFrameByPositionAndWarn() throws Exception {
    Path root = TimestampTwins.write(tmp.resolve("ds"), TimestampTwins.JITTERED);
    TimestampReport report = streamsEveryFrameAsWritten(root, TimestampTwins.JITTERED);
    assertEquals(EpisodeTimestamps.Convention.RECORDED, report.episode(1).convention());
    assertEquals(1, report.count(EpisodeTimestamps.Convention.RECORDED));
    assertEquals(2, report.count(EpisodeTimestamps.Convention.FRAME_START));
    assertEquals(1, report.warnings().size());
    assertWarning(
        report.warnings().get(0),
        "Rows as recorded in 1 of 3 episodes (1): LeRobot would show another frame on 6 rows, up"
            + " to 1 frame after the row's own (episode 1 row 1, timestamp 0.081 s, frame_index"
            + " / fps 0.050 s).",
        "--timestamps lerobot");
  }

  @Test
  void rowsAtFrameIndexOverFpsGiveNoWarningUnderAnyRule() throws Exception {
    Path root = TimestampTwins.write(tmp.resolve("ds"), TimestampTwins.AT_FRAME_INDEX);
    for (TimestampRule rule : TimestampRule.values()) {
      try (StreamingDataset ds = TimestampTwins.stream(root).timestamps(rule).build()) {
        assertEquals(List.of(), ds.timestamps().warnings(), rule.toString());
      }
    }
  }

  @Test
  void positionLogsItsWarningOnceWhenTheDatasetIsOpened() throws Exception {
    Path root = TimestampTwins.write(tmp.resolve("ds"), TimestampTwins.ONE_FRAME_LATE);
    try (StderrLines err = new StderrLines()) {
      try (StreamingDataset ds = TimestampTwins.stream(root).workers(2).build()) {
        for (Batch b : ds) {
          b.close();
        }
      }
      assertEquals(1, err.containing("LeRobot would show frame k+1 for row k").size());
      assertEquals(1, err.containing("--timestamps lerobot").size());
    }
  }

  @Test
  void strictRefusesRecordedTimestampsWhenBuiltNamingTheFirstRowAndTheWaysThrough()
      throws Exception {
    Path root = TimestampTwins.write(tmp.resolve("ds"), TimestampTwins.JITTERED);
    DatasetException.BadMetadata e = strictRefusal(TimestampTwins.stream(root));
    assertTrue(e.file().endsWith("episode_000001.parquet"), e.file());
    assertWarning(
        e.getMessage(),
        "episode 1 row 1 has timestamp 0.081000 s, but its frame is at 0.050000 s (frame_index /"
            + " fps), not within the tolerance of 0.0001 s",
        "are as recorded",
        "timestamps(TimestampRule.POSITION) (--timestamps position",
        "timestamps(TimestampRule.LEROBOT) (--timestamps lerobot",
        "a larger tolerance (toleranceSeconds)");
  }

  @Test
  void strictRefusesTheOneFrameLateConventionNamingRowZero() throws Exception {
    Path root = TimestampTwins.write(tmp.resolve("ds"), TimestampTwins.ONE_FRAME_LATE);
    DatasetException.BadMetadata e = strictRefusal(TimestampTwins.stream(root));
    assertWarning(
        e.getMessage(),
        "episode 1 row 0 has timestamp 0.050000 s, but its frame is at 0.000000 s",
        "are stamped one frame late ((frame_index + 1) / fps)",
        "--timestamps lerobot");
  }

  @Test
  void strictRefusesARowJustBeyondTheToleranceAndTakesItWithALargerOne() throws Exception {
    IntToDoubleFunction off = f -> f * FRAME + (f == 5 ? 1.5e-4 : 0);
    Path root = TimestampTwins.write(tmp.resolve("ds"), off);
    DatasetException.BadMetadata e = strictRefusal(TimestampTwins.stream(root));
    assertWarning(
        e.getMessage(),
        "episode 1 row 5 has timestamp 0.250150 s",
        "within half a frame of frame_index / fps, not within the tolerance");
    try (StreamingDataset ds =
        TimestampTwins.stream(root)
            .timestamps(TimestampRule.STRICT)
            .toleranceSeconds(2e-4)
            .build()) {
      assertEquals(30, everyFrameItsRows(ds));
      assertEquals(List.of(), ds.timestamps().warnings(), "the nearest frame is the row's own");
    }
  }

  @Test
  void aToleranceThatIsNotPositiveIsRefusedAsASetting() {
    for (double tolerance : new double[] {0, -1e-4, Double.NaN, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  TimestampTwins.stream(tmp.resolve("absent")).toleranceSeconds(tolerance).build(),
              "before the (absent) dataset is read");
      assertTrue(e.getMessage().startsWith("toleranceSeconds must be a positive"), e.getMessage());
    }
  }

  private static DatasetException.BadMetadata strictRefusal(StreamingDataset.Builder b) {
    return assertThrows(
        DatasetException.BadMetadata.class, () -> b.timestamps(TimestampRule.STRICT).build());
  }

  static void assertWarning(String text, String... parts) {
    for (String part : parts) {
      assertTrue(text.contains(part), "no \"" + part + "\" in: " + text);
    }
  }

  /** Every sample once, each frame the one its row names; returns how many. */
  private static int everyFrameItsRows(StreamingDataset ds) {
    Set<Long> seen = new HashSet<>();
    for (Batch b : ds) {
      try (b) {
        for (long s : PatternSamples.checked(b, ds.metadata().cameras())) {
          assertTrue(seen.add(s), "twice: " + Samples.toString(s));
        }
      }
    }
    return seen.size();
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
    try (StreamingDataset ds = TimestampTwins.stream(root).build()) {
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
}
