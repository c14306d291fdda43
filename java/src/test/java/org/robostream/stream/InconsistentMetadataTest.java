package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.LoaderSettings;
import org.robostream.testing.MetadataEdit;
import org.robostream.testing.ParquetEdit;

/**
 * Metadata that disagrees with itself, the data rows or the video is refused when the dataset is
 * opened, naming file, episode, field and both values; never frames of another episode.
 */
class InconsistentMetadataTest {
  private static final String TOP = "observation.images.top";
  private static final String EPISODES = "meta/episodes/chunk-000/file-000.parquet";
  private static final String DATA = "data/chunk-000/file-000.parquet";

  @TempDir Path tmp;

  /** The dataset's message, checked for the words a user needs to find the problem. */
  private static void assertNames(RuntimeException e, String... words) {
    for (String w : words) {
      assertTrue(e.getMessage().contains(w), "'" + w + "' missing from: " + e.getMessage());
    }
  }

  @Test
  void swappedFromTimestampsOfEqualLengthEpisodesAreRefused() throws Exception {
    // Counts still match (3 x 12 frames in one file): before, position addressing put episode 0
    // at frames 12..23, which are episode 1's, and the drift check agreed.
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV30());
    String from = "videos/" + TOP + "/from_timestamp";
    ParquetEdit.rewrite(
        root.resolve(EPISODES),
        t -> {
          double a = t.doubleAt(from, 0);
          t.set(from, 0, t.doubleAt(from, 1)).set(from, 1, a);
        });
    DatasetException e =
        assertThrows(
            DatasetException.BadMetadata.class, () -> LoaderSettings.inOrder(root).build());
    assertNames(e, EPISODES, "episode 0", from, "0.6", "videos/" + TOP + "/chunk-000/file-000.mp4");
  }

  @Test
  void swappedSpansOfEqualLengthEpisodesAreRefused() throws Exception {
    // from and to swapped together: each span alone is plausible, but LeRobot stores the
    // episodes of a file in episode order.
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV30());
    ParquetEdit.rewrite(
        root.resolve(EPISODES),
        t -> {
          for (String field : new String[] {"from_timestamp", "to_timestamp"}) {
            String column = "videos/" + TOP + "/" + field;
            double a = t.doubleAt(column, 0);
            t.set(column, 0, t.doubleAt(column, 1)).set(column, 1, a);
          }
        });
    DatasetException e =
        assertThrows(
            DatasetException.BadMetadata.class, () -> LoaderSettings.inOrder(root).build());
    assertNames(e, EPISODES, "episode 0", "from_timestamp");
  }

  @Test
  void aDeletedDataRowIsRefusedBeforeAnyBatch() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV30());
    ParquetEdit.rewrite(
        root.resolve(DATA),
        t ->
            t.keepRows(
                java.util.stream.IntStream.range(0, t.rows()).filter(r -> r != 17).toArray()));
    DatasetException e =
        assertThrows(DatasetException.class, () -> LoaderSettings.inOrder(root).build());
    assertNames(e, DATA, "episode 1", "11 rows", "length", "12");
  }

  @Test
  void anEpisodeLongerThanItsVideoSpanIsRefusedInsteadOfReadingTheNextEpisode() throws Exception {
    // Episode 1 claims 13 frames and has 13 rows, but its video span holds 12: the file's frame
    // count no longer matches the table, and looking frame 12 up by pts gave episode 2's frame 0
    // with only a warning.
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV30());
    ParquetEdit.rewrite(
        root.resolve(EPISODES),
        t ->
            t.set("length", 1, 13).set("dataset_to_index", 1, t.longAt("dataset_to_index", 1) + 1));
    ParquetEdit.rewrite(
        root.resolve(DATA),
        t -> {
          int[] order = new int[t.rows() + 1];
          for (int r = 0, o = 0; r < t.rows(); r++) {
            order[o++] = r;
            if (r == 23) {
              order[o++] = r; // episode 1's last row once more, as its frame 12
            }
          }
          t.keepRows(order);
          t.set("frame_index", 24, 12).set("timestamp", 24, 12 / 20.0);
          for (int r = 24; r < t.rows(); r++) {
            t.set("index", r, r);
          }
        });
    DatasetException e =
        assertThrows(
            DatasetException.BadMetadata.class, () -> LoaderSettings.inOrder(root).build());
    assertNames(e, EPISODES, "episode 1", "length", "13", "to_timestamp");
  }

  @Test
  void aV21EpisodeOfLengthZeroOverItsRowsIsRefused() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
    MetadataEdit.episodeField(root, 1, "length", "0");
    DatasetException e =
        assertThrows(DatasetException.class, () -> LoaderSettings.inOrder(root).build());
    assertNames(e, "episode 1", "length");
  }

  @Test
  void aV21LengthShorterThanTheRowsIsRefusedBeforeAnyBatch() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
    MetadataEdit.episodeField(root, 2, "length", "9");
    DatasetException e =
        assertThrows(DatasetException.class, () -> LoaderSettings.inOrder(root).build());
    assertNames(e, "episode_000002.parquet", "episode 2", "10 rows", "9");
  }

  @Test
  void theUntouchedSeedsStreamEveryFrameOnce() {
    for (Path root : new Path[] {Datasets.tinyPatternV30(), Datasets.tinyPatternV21()}) {
      Set<Long> seen = new HashSet<>();
      try (StreamingDataset ds = LoaderSettings.inOrder(root).build()) {
        for (Batch b : ds) {
          try (b) {
            for (PatternSamples.Delivered d :
                PatternSamples.of(b, ds.metadata().info().videoKeys())) {
              assertTrue(d.matches(), d.toString());
              assertTrue(seen.add(d.sample()), d.toString());
            }
          }
        }
      }
      assertEquals(Datasets.totalFrames(root), seen.size(), root.toString());
    }
  }
}
