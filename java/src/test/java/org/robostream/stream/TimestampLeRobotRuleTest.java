package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.robostream.stream.TimestampConventionTest.assertWarning;
import static org.robostream.stream.TimestampTwins.FRAME;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntToDoubleFunction;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.TimestampRule;
import org.robostream.dataset.synth.PatternCode;

/**
 * {@link TimestampRule#LEROBOT} on the synthetic twins of each shape of timestamp column ({@link
 * TimestampTwins}: episode 1 rewritten, every frame painted with its episode and frame): each row
 * shows the frame nearest its timestamp, as LeRobot picks it, and a row with no frame within the
 * tolerance refuses the dataset when it is built, naming the row, its timestamp, the nearest
 * frame's time, the tolerance and the ways through.
 */
class TimestampLeRobotRuleTest {
  static final String FIRST_CAMERA = "observation.images.top";

  @TempDir Path tmp;

  @Test
  void rowsAtFrameIndexOverFpsShowTheirOwnFrames() throws Exception {
    Path root = TimestampTwins.write(tmp.resolve("ds"), TimestampTwins.AT_FRAME_INDEX);
    assertEquals(30, streamsFrames(lerobot(root), (e, f) -> f));
  }

  @Test
  void eachRowShowsTheFrameNearestItsTimestamp() throws Exception {
    // One frame late but the last row, which keeps the last frame: rows 8 and 9 show frame 9.
    IntToDoubleFunction late = f -> Math.min(f + 1, 9) * FRAME;
    Path root = TimestampTwins.write(tmp.resolve("ds"), late);
    assertEquals(30, streamsFrames(lerobot(root), (e, f) -> e == 1 ? Math.min(f + 1, 9) : f));
    assertEquals(
        30,
        streamsFrames(
            lerobot(root).shuffle(true).workers(2), (e, f) -> e == 1 ? Math.min(f + 1, 9) : f));
  }

  @Test
  void oneFrameLateRowsAreRefusedWhenBuiltNamingTheEpisodesLastRow() throws Exception {
    Path root = TimestampTwins.write(tmp.resolve("ds"), TimestampTwins.ONE_FRAME_LATE);
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> lerobot(root).build());
    assertTrue(e.file().endsWith("episode_000001.mp4"), e.file());
    assertWarning(
        e.getMessage(),
        "episode 1 (" + FIRST_CAMERA + ") row 9 (its last row) has timestamp 0.500000 s",
        "LeRobot looks for its frame at 0.500000 s of the file",
        "frame 9 of the file, is at 0.450000 s: 0.050000 s away, not within the tolerance of"
            + " 0.0001 s",
        "LeRobot fails on this row",
        "timestamps(TimestampRule.POSITION) (--timestamps position",
        "or a larger tolerance (toleranceSeconds; this row needs more than 0.050000 s)");
  }

  @Test
  void jitteredRowsAreRefusedAtTheDefaultToleranceAndShowTheirNearestFramesWithALargerOne()
      throws Exception {
    Path root = TimestampTwins.write(tmp.resolve("ds"), TimestampTwins.JITTERED);
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> lerobot(root).build());
    assertWarning(
        e.getMessage(),
        "episode 1 (" + FIRST_CAMERA + ") row 1 has timestamp 0.081000 s",
        "frame 2 of the file, is at 0.100000 s: 0.019000 s away");
    IntUnaryOperator nearest =
        f -> TimestampTwins.nearestFrame((float) TimestampTwins.JITTERED.applyAsDouble(f));
    // Rows are at most 0.023 s from their nearest frame; the next nearest is 0.027 s away or more.
    assertEquals(
        30,
        streamsFrames(
            lerobot(root).toleranceSeconds(0.024), (ep, f) -> ep == 1 ? nearest.applyAsInt(f) : f));
    try (StreamingDataset ds = lerobot(root).toleranceSeconds(0.024).build()) {
      assertEquals(List.of(), ds.timestamps().warnings(), "LeRobot's frames: nothing to warn of");
    }
  }

  @Test
  void aRowJustBeyondTheToleranceIsRefusedAndTakenWithALargerOne() throws Exception {
    IntToDoubleFunction off = f -> f * FRAME + (f == 5 ? 1.5e-4 : 0);
    Path root = TimestampTwins.write(tmp.resolve("ds"), off);
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> lerobot(root).build());
    assertWarning(
        e.getMessage(),
        "episode 1 (" + FIRST_CAMERA + ") row 5 has timestamp 0.250150 s",
        "frame 5 of the file, is at 0.250000 s: 0.000150 s away, not within the tolerance of 0.0001"
            + " s");
    assertEquals(30, streamsFrames(lerobot(root).toleranceSeconds(2e-4), (ep, f) -> f));
  }

  @Test
  void aWindowPositionShowsTheFrameOfTheRowItReadsClampedToTheEpisode() throws Exception {
    IntToDoubleFunction late = f -> Math.min(f + 1, 9) * FRAME;
    Path root = TimestampTwins.write(tmp.resolve("ds"), late);
    int[] offsets = {-2, 0, 1};
    int checked = 0;
    try (StreamingDataset ds =
        lerobot(root)
            .deltaTimestamps(Map.of(FIRST_CAMERA, new double[] {-2 * FRAME, 0, FRAME}))
            .build()) {
      for (Batch b : ds) {
        try (b) {
          long[] episode = b.longs("episode_index");
          long[] frame = b.longs("frame_index");
          boolean[] pad = b.booleans(FIRST_CAMERA + "_is_pad");
          int[] shape = b.frameShape(FIRST_CAMERA); // [batch, T, H, W, C]
          int bytes = shape[2] * shape[3] * shape[4];
          for (int i = 0; i < b.size(); i++) {
            int e = (int) episode[i];
            int f = (int) frame[i];
            ByteBuffer frames = b.frames(FIRST_CAMERA).sample(i);
            for (int t = 0; t < offsets.length; t++) {
              int row = Math.max(0, Math.min(9, f + offsets[t]));
              int want = e == 1 ? Math.min(row + 1, 9) : row;
              assertEquals(f + offsets[t] < 0 || f + offsets[t] > 9, pad[i * offsets.length + t]);
              ByteBuffer one =
                  frames.duplicate().position(t * bytes).limit((t + 1) * bytes).slice();
              assertEquals(
                  new PatternCode.Identity(e, want, 0),
                  PatternCode.read(one, shape[3], shape[2], false),
                  "episode " + e + " row " + f + " window position " + t);
            }
            checked++;
          }
        }
      }
    }
    assertEquals(30, checked);
  }

  @Test
  void framesPickedByTimestampAreServedByTheFrameCacheAsDecoded() throws Exception {
    IntToDoubleFunction late = f -> Math.min(f + 1, 9) * FRAME;
    Path root = TimestampTwins.write(tmp.resolve("ds"), late);
    Expected expected = (e, f) -> e == 1 ? Math.min(f + 1, 9) : f;
    StreamingDataset.Builder cached =
        lerobot(root)
            .frameCache(
                org.robostream.framecache.FrameCacheOptions.directory(
                    tmp.resolve("cache"), 64L << 20));
    try (StreamingDataset ds = cached.build()) {
      assertEquals(30, streamsFrames(ds, expected), "decoded and stored");
      assertEquals(0, ds.stats().framesFromCache());
    }
    try (StreamingDataset ds = cached.build()) {
      assertEquals(30, streamsFrames(ds, expected), "served from the cache");
      assertEquals(60, ds.stats().framesFromCache(), "both cameras' frames");
    }
  }

  @Test
  void dataFilesWithoutATimestampColumnAreRefused() throws Exception {
    Path root = TimestampTwins.write(tmp.resolve("ds"), TimestampTwins.AT_FRAME_INDEX);
    org.robostream.testing.MetadataEdit.info(
        root,
        info ->
            ((com.fasterxml.jackson.databind.node.ObjectNode) info.path("features"))
                .remove("timestamp"));
    for (int e = 0; e < 3; e++) {
      org.robostream.testing.ParquetEdit.rewrite(
          root.resolve(String.format("data/chunk-000/episode_%06d.parquet", e)),
          t -> t.drop("timestamp"));
    }
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> lerobot(root).build());
    assertWarning(
        e.getMessage(),
        "episode 0 has no timestamp column (or info.json does not declare it), and"
            + " timestamps(LEROBOT) picks each row's frame by its timestamp",
        "--timestamps position");
    assertEquals(30, streamsFrames(TimestampTwins.stream(root), (ep, f) -> f), "by position");
  }

  @Test
  void theRuleIsParsedFromItsName() {
    assertEquals(TimestampRule.LEROBOT, TimestampRule.parse(" LeRobot "));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TimestampRule.parse("nearest"));
    assertEquals("timestamps must be position, strict or lerobot, got \"nearest\"", e.getMessage());
  }

  private static StreamingDataset.Builder lerobot(Path root) {
    return TimestampTwins.stream(root).timestamps(TimestampRule.LEROBOT);
  }

  /** The frame a row of an episode is expected to show. */
  interface Expected {
    int frame(int episode, int row);
  }

  /**
   * Streams an epoch and checks that every camera of every sample shows frame {@code
   * expected(episode, row)} of the sample's episode; returns the samples seen (each once).
   */
  private static int streamsFrames(StreamingDataset.Builder builder, Expected expected) {
    try (StreamingDataset ds = builder.build()) {
      return streamsFrames(ds, expected);
    }
  }

  /** As {@link #streamsFrames(StreamingDataset.Builder, Expected)}, one epoch of {@code ds}. */
  private static int streamsFrames(StreamingDataset ds, Expected expected) {
    Set<Long> seen = new HashSet<>();
    List<String> cameras = ds.metadata().cameras();
    for (Batch b : ds) {
      try (b) {
        for (PatternSamples.Delivered d : PatternSamples.of(b, cameras)) {
          assertTrue(seen.add(d.sample()), "twice: " + d);
          for (int k = 0; k < cameras.size(); k++) {
            assertEquals(
                new PatternCode.Identity(d.episode(), expected.frame(d.episode(), d.frame()), k),
                d.painted().get(k),
                d.toString());
          }
        }
      }
    }
    return seen.size();
  }
}
