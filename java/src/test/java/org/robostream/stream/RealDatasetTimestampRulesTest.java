package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.robostream.stream.TimestampConventionTest.assertWarning;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.TimestampRule;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.testing.FrameCompare;
import org.robostream.testing.ReferenceFrames;
import org.robostream.testing.StderrLines;
import org.robostream.video.FrameLayout;

/**
 * The three timestamp rules on the real datasets whose rows LeRobot pairs with other frames than
 * their own: GR00T's demo data (every row stamped one frame late) and the CR5 arm's (timestamps as
 * recorded). By position each warns once, naming LeRobot's rule; STRICT refuses both; LEROBOT
 * refuses both at LeRobot's default tolerance, naming the row LeRobot fails on, and with a larger
 * tolerance shows the frame nearest each row's timestamp (by ffprobe's pts), as the ffmpeg CLI
 * decodes it. Skipped with a warning where the shared datasets are missing.
 */
class RealDatasetTimestampRulesTest {
  static final String EGO_VIEW = "observation.images.ego_view";
  static final String TOP = "observation.images.top";
  static final double MEAN_TOLERANCE = 1.5; // as RealDatasetSelectionTest

  @TempDir Path tmp;

  @Test
  void gr00tByPositionWarnsOnceThatLeRobotShowsFrameKPlusOne() throws Exception {
    try (StderrLines err = new StderrLines();
        StreamingDataset ds = gr00t().build()) {
      assertEquals(1, ds.timestamps().warnings().size(), ds.timestamps().warnings().toString());
      assertWarning(
          ds.timestamps().warnings().get(0),
          "timestamps position (the default) shows row k of an episode with frame k",
          "Rows stamped one frame late ((frame_index + 1) / fps) in 5 of 5 episodes (0-4):"
              + " LeRobot would show frame k+1 for row k, and fail on each episode's last row.",
          "TimestampRule.LEROBOT",
          "--timestamps lerobot");
      assertEquals(1, err.containing("LeRobot would show frame k+1 for row k").size());
    }
  }

  @Test
  void gr00tStrictIsRefusedWhenBuiltNamingRowZeroOneFrameLate() {
    // Made outside assertThrows: without ../shared the fixture skips the test here.
    StreamingDataset.Builder strict = gr00t().timestamps(TimestampRule.STRICT);
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, strict::build);
    assertTrue(e.file().endsWith("data/chunk-000/episode_000000.parquet"), e.file());
    assertWarning(
        e.getMessage(),
        "episode 0 row 0 has timestamp 0.050000 s, but its frame is at 0.000000 s",
        "stamped one frame late",
        "--timestamps position",
        "--timestamps lerobot");
  }

  @Test
  void gr00tLeRobotIsRefusedWhenBuiltNamingTheFirstEpisodesLastRow() {
    // Made outside assertThrows: without ../shared the fixture skips the test here.
    StreamingDataset.Builder lerobot = gr00t().timestamps(TimestampRule.LEROBOT);
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, lerobot::build);
    assertTrue(e.file().endsWith(EGO_VIEW + "/episode_000000.mp4"), e.file());
    assertWarning(
        e.getMessage(),
        "episode 0 (" + EGO_VIEW + ") row 415 (its last row) has timestamp 20.799980 s",
        "the nearest, frame 415 of the file, is at 20.750000 s: 0.049980 s away, not within the"
            + " tolerance of 0.0001 s",
        "LeRobot fails on this row",
        "--timestamps position",
        "a larger tolerance");
  }

  @Test
  void gr00tLeRobotWithMoreThanTheLastRowsGapShowsFrameKPlusOneAsTheFfmpegCliDecodesIt()
      throws Exception {
    // Row k at (k + 1) / 20 s: frame k + 1, but the last row, 0.05 s past the last frame.
    StreamingDataset.Builder b = gr00t().timestamps(TimestampRule.LEROBOT).toleranceSeconds(0.06);
    assertEquals(2096, streamAndCompare(b, EGO_VIEW, 256, 256));
  }

  @Test
  void cr5ByPositionWarnsOnceHowFarLeRobotsFramesAre() {
    try (StreamingDataset ds = cr5().build()) {
      assertEquals(1, ds.timestamps().warnings().size());
      assertWarning(
          ds.timestamps().warnings().get(0),
          "Rows as recorded in 5 of 5 episodes (0-4): LeRobot would show another frame on 879"
              + " rows, up to 22 frames after the row's own (episode 2 row 269, timestamp 29.070"
              + " s, frame_index / fps 26.900 s), and fail on 49 rows whose timestamps fall"
              + " outside their episode's frames.",
          "--timestamps lerobot");
    }
  }

  @Test
  void cr5StrictIsRefusedWhenBuiltNamingTheFirstRecordedRow() {
    // Made outside assertThrows: without ../shared the fixture skips the test here.
    StreamingDataset.Builder strict = cr5().timestamps(TimestampRule.STRICT);
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, strict::build);
    assertTrue(e.file().endsWith("episode_000000.parquet"), e.file());
    assertWarning(
        e.getMessage(),
        "episode 0 row 0 has timestamp 0.031337 s",
        "are as recorded (up to 0.952864 s from frame_index / fps)");
  }

  @Test
  void cr5LeRobotIsRefusedAtTheDefaultToleranceAndAtHalfAFramePastIt() {
    // Made outside assertThrows: without ../shared the fixture skips the test here.
    StreamingDataset.Builder lerobot = cr5().timestamps(TimestampRule.LEROBOT);
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, lerobot::build);
    assertWarning(
        e.getMessage(),
        "episode 0 (" + TOP + ") row 0 has timestamp 0.031337 s",
        "0.031337 s away, not within the tolerance of 0.0001 s");
    // At 0.06 s every row has a frame within half a frame but the rows recorded after the
    // episode's last frame: the first of them is 0.145 s past it.
    // Made outside assertThrows: without ../shared the fixture skips the test here.
    StreamingDataset.Builder halfAFrame =
        cr5().timestamps(TimestampRule.LEROBOT).toleranceSeconds(0.06);
    e = assertThrows(DatasetException.BadMetadata.class, halfAFrame::build);
    assertWarning(
        e.getMessage(),
        "episode 0 (" + TOP + ") row 188 has timestamp 19.745140 s",
        "frame 196 of the file, is at 19.600000 s: 0.145140 s away, not within the tolerance of"
            + " 0.06 s");
  }

  @Test
  void cr5LeRobotWithATolerancePastEveryRowShowsTheTimestampNearestFrames() throws Exception {
    // Episode 2's last rows are recorded up to 1.7 s past its last frame.
    StreamingDataset.Builder b = cr5().timestamps(TimestampRule.LEROBOT).toleranceSeconds(2.5);
    assertEquals(1133, streamAndCompare(b, TOP, 640, 480));
  }

  private static StreamingDataset.Builder gr00t() {
    return StreamingDataset.builder(Fixtures.sharedDataset(Fixtures.GR00T)).cameras(EGO_VIEW);
  }

  private static StreamingDataset.Builder cr5() {
    return StreamingDataset.builder(Fixtures.sharedDataset(Fixtures.CR5)).episodes("0-4");
  }

  /**
   * Streams one shuffled epoch with two workers and checks every sample against ffprobe and the
   * ffmpeg CLI: its frame is the one of its episode's file whose pts is nearest the row's timestamp
   * (the earlier on a tie), and its pixels are that frame's. Returns the samples seen.
   */
  private int streamAndCompare(StreamingDataset.Builder builder, String camera, int w, int h)
      throws Exception {
    Set<Long> seen = new HashSet<>();
    Map<Integer, ReferenceFrames> references = new HashMap<>();
    Map<Integer, double[]> pts = new HashMap<>();
    int moved = 0;
    try (StreamingDataset ds =
        builder
            .batchSize(16)
            .workers(2)
            .bufferSize(64)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      for (EpisodeInfo e : ds.metadata().episodes()) {
        Path file = e.video(camera).file();
        references.put(e.index(), ReferenceFrames.decode(file, w, h, tmp));
        pts.put(e.index(), FfmpegReference.framePts(file));
      }
      for (Batch b : ds) {
        try (b) {
          long[] episode = b.longs("episode_index");
          long[] index = b.longs("index"); // GR00T has no frame_index column
          double[] timestamp = b.doubles("timestamp");
          ByteBuffer position =
              b.tensor(camera + ".frame_index").data().order(ByteOrder.nativeOrder());
          for (int i = 0; i < b.size(); i++) {
            int e = (int) episode[i];
            long row = index[i] - ds.metadata().episode(e).datasetFromIndex();
            String sample = "episode " + e + " row " + row + " at " + timestamp[i] + " s";
            assertTrue(seen.add(Samples.of(e, (int) row)), sample + " twice");
            int want = nearest(pts.get(e), timestamp[i]);
            assertEquals(want, position.getLong(i * Long.BYTES), sample + ": frame taken");
            moved += want != row ? 1 : 0;
            ByteBuffer got = b.frames(camera).sample(i);
            byte[] mine = new byte[got.remaining()];
            got.get(mine);
            double diff = FrameCompare.meanAbsDiff(mine, references.get(e).frame(want), 0);
            assertTrue(diff <= MEAN_TOLERANCE, sample + ": mean difference " + diff);
          }
        }
      }
      int total = ds.metadata().episodes().stream().mapToInt(EpisodeInfo::length).sum();
      assertEquals(total, seen.size());
      assertTrue(moved > total / 3, moved + " of " + total + " rows show another frame");
    } finally {
      for (ReferenceFrames r : references.values()) {
        r.close();
      }
    }
    return seen.size();
  }

  /** The frame whose pts is nearest {@code seconds} (the earlier on a tie). */
  private static int nearest(double[] pts, double seconds) {
    int best = 0;
    for (int k = 1; k < pts.length; k++) {
      if (Math.abs(pts[k] - seconds) < Math.abs(pts[best] - seconds)) {
        best = k;
      }
    }
    return best;
  }
}
