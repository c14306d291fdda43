package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.EpisodeTimestamps;
import org.robostream.dataset.TimestampReport;
import org.robostream.dataset.TimestampRule;
import org.robostream.testing.Fixtures;
import org.robostream.testing.FrameCompare;
import org.robostream.testing.ReferenceFrames;
import org.robostream.video.FrameLayout;

/**
 * The real datasets of shared/datasets as published, end to end: the episodes and cameras whose
 * files are there stream every sample of the epoch exactly once, each frame the one the ffmpeg CLI
 * decodes at that position (pixels within the decoders' rounding, and the frame's own position in
 * its file); asking for more is refused when the dataset is opened, naming the missing files and
 * the option that selects what is there. Skipped with a warning where the shared datasets are
 * missing.
 */
class RealDatasetSelectionTest {
  static final double MEAN_TOLERANCE = 1.5; // as video.FrameExactnessTest

  @TempDir Path tmp;

  @Test
  void g1EpisodesOneTwoFourStreamEveryFrameOnceAsTheFfmpegCliDecodesIt() throws Exception {
    Path root = Fixtures.sharedDataset(Fixtures.G1);
    StreamingDataset.Builder b = StreamingDataset.builder(root).episodes("1-2,4");
    assertEquals(1093, streamAndCompare(b, "observation.images.cam_high", 640, 480));
  }

  @Test
  void gr00tEgoViewStreamsEveryFrameOnceAsTheFfmpegCliDecodesIt() throws Exception {
    Path root = Fixtures.sharedDataset(Fixtures.GR00T);
    StreamingDataset.Builder b =
        StreamingDataset.builder(root).cameras("observation.images.ego_view");
    assertEquals(2096, streamAndCompare(b, "observation.images.ego_view", 256, 256));
  }

  @Test
  void cr5EpisodesZeroToFourStreamEveryFrameByPositionWithTheirRecordedTimestamps()
      throws Exception {
    Path root = Fixtures.sharedDataset(Fixtures.CR5);
    StreamingDataset.Builder b = StreamingDataset.builder(root).episodes("0-4");
    // 197 + 215 + 275 + 209 + 237 rows, each the frame at its own position in its episode's file.
    assertEquals(1133, streamAndCompare(b, "observation.images.top", 640, 480));
    try (StreamingDataset ds = StreamingDataset.builder(root).episodes("0-4").build()) {
      TimestampReport report = ds.timestamps();
      assertEquals(5, report.count(EpisodeTimestamps.Convention.RECORDED), report.summary());
      EpisodeTimestamps worst = report.largestRecordedDrift().orElseThrow();
      assertTrue(worst.maxDriftSeconds() > 0.05, "more than half a frame at 10 fps");
      assertTrue(
          report.summary().startsWith("timestamps: 5 of 5 episodes as recorded, up to "),
          report.summary());
      // Episode 1 as its README says: row 0 at 0.056 s (near the one-frame-late step), row 1 at
      // 0.116 s (near frame_index / fps): no convention holds for every row.
      assertTrue(report.episode(1).firstOffRow() >= 1, "a row leaves row 0's step");
    }
  }

  @Test
  void cr5StrictTimestampsAreRefusedWhenBuiltNamingTheWayThrough() {
    Path root = Fixtures.sharedDataset(Fixtures.CR5);
    DatasetException.BadMetadata e =
        assertThrows(
            DatasetException.BadMetadata.class,
            () ->
                StreamingDataset.builder(root)
                    .episodes("0-4")
                    .timestamps(TimestampRule.STRICT)
                    .build());
    assertTrue(e.file().endsWith("episode_000000.parquet"), e.file());
    assertTrue(e.getMessage().contains("--timestamps position"), e.getMessage());
  }

  @Test
  void cr5WithEveryEpisodeIsRefusedUpFrontNamingTheEpisodesThatAreThere() {
    String m = refusal(StreamingDataset.builder(Fixtures.sharedDataset(Fixtures.CR5)));
    assertNames(m, "152 of the 162 files", "episodes(\"0-4\")");
  }

  @Test
  void gr00tWithEveryCameraIsRefusedUpFrontNamingEgoviewsFilesAndTheCameraOption() {
    String m = refusal(StreamingDataset.builder(Fixtures.sharedDataset(Fixtures.GR00T)));
    assertNames(
        m,
        "5 of the 15 files",
        "videos/chunk-000/observation.images.egoview/episode_000000.mp4",
        "cameras(\"observation.images.ego_view\")",
        "no file of observation.images.egoview is here");
  }

  @Test
  void g1WithEveryEpisodeIsRefusedUpFrontNamingTheMissingFilesAndTheEpisodesThatAreThere() {
    String m = refusal(StreamingDataset.builder(Fixtures.sharedDataset(Fixtures.G1)));
    assertNames(
        m, "194 of the 200 files", "data/chunk-000/episode_000000.parquet", "episodes(\"1-2,4\")");
  }

  @Test
  void g1AnotherEpisodeIsRefusedUpFrontNamingItsFiles() {
    String m =
        refusal(
            StreamingDataset.builder(Fixtures.sharedDataset(Fixtures.G1)).episodes(List.of(0, 1)));
    assertNames(
        m,
        "2 of the 4 files",
        "data/chunk-000/episode_000000.parquet",
        "videos/chunk-000/observation.images.cam_high/episode_000000.mp4",
        "episodes(\"1\")");
  }

  private static void assertNames(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "no " + part + " in: " + message);
    }
  }

  /** The message of the missing-files error {@code builder}'s build() raises. */
  private static String refusal(StreamingDataset.Builder builder) {
    return assertThrows(DatasetException.MissingFile.class, builder::build).getMessage();
  }

  /**
   * Streams one shuffled epoch of {@code builder}'s dataset with two workers and checks every
   * sample: delivered once, its camera frame taken from its own position in the episode's file and
   * within {@link #MEAN_TOLERANCE} of the ffmpeg CLI's frame there. Returns the samples seen.
   */
  private int streamAndCompare(StreamingDataset.Builder builder, String camera, int w, int h)
      throws Exception {
    Set<Long> seen = new HashSet<>();
    Map<Integer, ReferenceFrames> references = new HashMap<>();
    try (StreamingDataset ds =
        builder
            .batchSize(16)
            .workers(2)
            .bufferSize(64)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      assertEquals(List.of(camera), ds.metadata().cameras());
      for (EpisodeInfo e : ds.metadata().episodes()) {
        ReferenceFrames ref = ReferenceFrames.decode(e.video(camera).file(), w, h, tmp);
        assertEquals(e.length(), ref.frames(), "ffmpeg's frames of episode " + e.index());
        references.put(e.index(), ref);
      }
      for (Batch b : ds) {
        try (b) {
          assertEquals(List.of(camera), b.cameras());
          long[] episode = b.longs("episode_index");
          long[] index = b.longs("index"); // GR00T has no frame_index column

          ByteBuffer position =
              b.tensor(camera + ".frame_index").data().order(ByteOrder.nativeOrder());
          for (int i = 0; i < b.size(); i++) {
            long frame = index[i] - ds.metadata().episode((int) episode[i]).datasetFromIndex();
            String sample = "episode " + episode[i] + " frame " + frame;
            assertTrue(seen.add(Samples.of((int) episode[i], (int) frame)), sample + " twice");
            assertEquals(frame, position.getLong(i * Long.BYTES), sample + ": frame taken");
            ByteBuffer got = b.frames(camera).sample(i);
            byte[] mine = new byte[got.remaining()];
            got.get(mine);
            byte[] ref = references.get((int) episode[i]).frame((int) frame);
            double diff = FrameCompare.meanAbsDiff(mine, ref, 0);
            assertTrue(diff <= MEAN_TOLERANCE, sample + ": mean difference " + diff);
          }
        }
      }
      int total = ds.metadata().episodes().stream().mapToInt(EpisodeInfo::length).sum();
      assertEquals(total, seen.size());
    } finally {
      for (ReferenceFrames r : references.values()) {
        r.close();
      }
    }
    return seen.size();
  }
}
