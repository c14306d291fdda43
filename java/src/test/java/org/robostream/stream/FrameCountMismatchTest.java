package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.dataset.synth.PatternCode;
import org.robostream.dataset.synth.PatternVideos;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;
import org.robostream.testing.LoaderSettings;

/**
 * A video whose frame count differs from what the episodes table puts in it ({@link
 * org.robostream.fetch.FramePlacement}): the loader cannot address frames by position and looks
 * each one up by pts, within the tolerance. Extra frames that keep the file's duration are skipped,
 * and every sample still gets its own frame; a lookup farther than the tolerance, a file whose
 * duration no longer matches the table (a trailing frame appended), or an episode whose timestamps
 * are as recorded (the time to look up is then in doubt) is a {@link DatasetException.BadMetadata}
 * naming the file and the episode when the dataset is built — never another frame, never half way
 * through an epoch.
 *
 * <p>The seed: {@link Datasets#tinyPatternV30()}, 3 episodes x 12 frames at 20 fps in one file per
 * camera; the top camera's file is replaced.
 */
class FrameCountMismatchTest {
  private static final String TOP = "observation.images.top";
  private static final String TOP_FILE = "videos/" + TOP + "/chunk-000/file-000.mp4";
  private static final int FPS = 20;
  private static final int EPISODES = 3;
  private static final int LENGTH = 12;

  /** Painted as the camera of frames the table does not address, so delivering one shows. */
  private static final int NOT_IN_THE_TABLE = 200;

  @TempDir Path tmp;

  /** The seed with the top camera's file replaced by {@code frames} encoded at {@code fps}. */
  private Path withTopVideo(int fps, List<PatternCode.Identity> frames) throws Exception {
    Path root = tmp.resolve("ds");
    V30MetadataTestAccess.copyTree(Datasets.tinyPatternV30(), root);
    PatternVideos.encode(root.resolve(TOP_FILE), 64, 64, fps, frames);
    return root;
  }

  /** Every table frame of the top camera (camera 0), with an unaddressed frame after each. */
  private static List<PatternCode.Identity> twiceTheRate() {
    List<PatternCode.Identity> frames = new ArrayList<>();
    for (int e = 0; e < EPISODES; e++) {
      for (int f = 0; f < LENGTH; f++) {
        frames.add(new PatternCode.Identity(e, f, 0));
        frames.add(new PatternCode.Identity(e, f, NOT_IN_THE_TABLE));
      }
    }
    return frames;
  }

  /** The refusal {@code build()} raises. */
  private static DatasetException.BadMetadata refusalOf(Path root) {
    return assertThrows(
        DatasetException.BadMetadata.class, () -> LoaderSettings.inOrder(root).build());
  }

  @Test
  void extraFramesBetweenTheTablesFramesAreSkippedByThePtsLookup() throws Exception {
    // 72 frames at 40 fps where the table puts 36 at 20 fps: same duration, twice the count.
    Path root = withTopVideo(2 * FPS, twiceTheRate());
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds = LoaderSettings.inOrder(root).build()) {
      assertEquals(TOP, ds.metadata().info().videoKeys().get(0));
      for (Batch b : ds) {
        try (b) {
          for (long s : PatternSamples.checked(b, ds.metadata().info().videoKeys())) {
            assertTrue(seen.add(s), "delivered twice: " + Samples.toString(s));
          }
        }
      }
    }
    assertEquals(EPISODES * LENGTH, seen.size());
  }

  @Test
  void aLookupFartherThanTheToleranceIsATypedErrorNamingFileEpisodeAndCamera() throws Exception {
    Path root = withTopVideo(2 * FPS, twiceTheRate());
    // Episode 1's packets (24..47 of the 40 fps file, decode order = display order in AV1)
    // 2 ms late: more than the 1e-4 s tolerance, less than half a frame. The expression has no
    // comma, which would end the bitstream filter's arguments.
    Path video = root.resolve(TOP_FILE);
    Path shifted = video.resolveSibling("shifted.mp4");
    String episode1 = "(0.002/TB)*(1-abs(sgn(floor(N/24)-1)))";
    Fixtures.run(
        "ffmpeg",
        "-v",
        "error",
        "-y",
        "-i",
        video.toString(),
        "-c",
        "copy",
        "-bsf:v",
        "setts=pts=PTS+" + episode1 + ":dts=DTS+" + episode1,
        shifted.toString());
    Files.move(shifted, video, StandardCopyOption.REPLACE_EXISTING);

    DatasetException.BadMetadata e = refusalOf(root);
    assertEquals(root.resolve(TOP_FILE).toString(), e.file());
    assertTrue(e.getMessage().contains("episode 1 (" + TOP + ")"), e.getMessage());
    assertTrue(e.getMessage().contains("looked up by pts"), e.getMessage());
  }

  @Test
  void recordedTimestampsWhereFramesAreLookedUpByTimeAreRefusedWhenBuilt() throws Exception {
    Path root = withTopVideo(2 * FPS, twiceTheRate());
    // Episode 2's rows drift more than half a frame: looked up by time, its frames are in doubt.
    org.robostream.testing.ParquetEdit.rewrite(
        root.resolve("data/chunk-000/file-000.parquet"),
        t -> {
          for (int row = 0; row < t.rows(); row++) {
            if (t.longAt("episode_index", row) == 2) {
              t.set("timestamp", row, t.doubleAt("timestamp", row) + 0.03 * (row % 2));
            }
          }
        });
    DatasetException.BadMetadata e = refusalOf(root);
    assertEquals(root.resolve(TOP_FILE).toString(), e.file());
    assertTrue(e.getMessage().contains("episode 2 (" + TOP + ")"), e.getMessage());
    assertTrue(e.getMessage().contains("as recorded"), e.getMessage());
    assertTrue(e.getMessage().contains("in doubt"), e.getMessage());
    assertTrue(e.getMessage().contains("--episodes"), e.getMessage());
    assertTrue(e.getMessage().contains("--timestamps lerobot"), e.getMessage());
  }

  @Test
  void underLeRobotsRuleEachRowShowsTheFrameItsTimestampNamesEvenOneTheTableDoesNotAddress()
      throws Exception {
    Path root = withTopVideo(2 * FPS, twiceTheRate());
    // Episode 2's odd rows half a frame late: at the frames between the table's (camera 200).
    org.robostream.testing.ParquetEdit.rewrite(
        root.resolve("data/chunk-000/file-000.parquet"),
        t -> {
          for (int row = 0; row < t.rows(); row++) {
            if (t.longAt("episode_index", row) == 2 && t.longAt("frame_index", row) % 2 == 1) {
              t.set("timestamp", row, t.doubleAt("timestamp", row) + 0.5 / FPS);
            }
          }
        });
    // The wrist camera's file has no frame there: LeRobot's rule refuses it, so only the top's.
    DatasetException.BadMetadata e =
        assertThrows(
            DatasetException.BadMetadata.class,
            () ->
                LoaderSettings.inOrder(root)
                    .timestamps(org.robostream.dataset.TimestampRule.LEROBOT)
                    .build());
    assertTrue(
        e.getMessage().contains("episode 2 (observation.images.wrist) row 1"), e.getMessage());
    int checked = 0;
    try (StreamingDataset ds =
        LoaderSettings.inOrder(root)
            .cameras(TOP)
            .timestamps(org.robostream.dataset.TimestampRule.LEROBOT)
            .build()) {
      for (Batch b : ds) {
        try (b) {
          for (PatternSamples.Delivered d : PatternSamples.of(b, List.of(TOP))) {
            boolean between = d.episode() == 2 && d.frame() % 2 == 1;
            assertEquals(
                new PatternCode.Identity(d.episode(), d.frame(), between ? NOT_IN_THE_TABLE : 0),
                d.painted().get(0),
                d.toString());
            checked++;
          }
        }
      }
    }
    assertEquals(EPISODES * LENGTH, checked);
  }

  @Test
  void aTrailingFrameBeyondTheTablesFramesIsATypedErrorNamingFileEpisodeAndCamera()
      throws Exception {
    // The table's 36 frames and one more: the file lasts a frame longer than the table says,
    // so a lookup by pts could reach frames of an episode the table does not describe.
    List<PatternCode.Identity> frames = new ArrayList<>();
    for (int e = 0; e < EPISODES; e++) {
      for (int f = 0; f < LENGTH; f++) {
        frames.add(new PatternCode.Identity(e, f, 0));
      }
    }
    frames.add(new PatternCode.Identity(EPISODES - 1, LENGTH, NOT_IN_THE_TABLE));
    Path root = withTopVideo(FPS, frames);

    DatasetException.BadMetadata e = refusalOf(root);
    assertEquals(root.resolve(TOP_FILE).toString(), e.file());
    assertTrue(
        e.getMessage().contains("37 frames") && e.getMessage().contains("36 frames"),
        e.getMessage());
  }
}
