package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeTimestamps;
import org.robostream.dataset.ParquetFrames;
import org.robostream.dataset.TimestampRule;
import org.robostream.dataset.ToTimestamp;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.dataset.synth.WriterConventions;
import org.robostream.testing.Datasets;
import org.robostream.testing.MetadataEdit;
import org.robostream.testing.ParquetEdit;
import org.robostream.video.FrameLayout;

/**
 * Data as other writers record it (issue 23), each case on a synthetic twin of a real dataset so
 * that each rule has a test that fails without it: timestamps as a robot recorded them
 * (cr5-v21-sample), {@code to_timestamp} at the last frame with one H.264 file per episode, float64
 * vectors declared float32, files in a folder info.json does not point to, a v2.1 template with a
 * v3.0 field, and a shuffle buffer larger than the memory budget on long-GOP video.
 */
class DataAsRecordedTest {
  static final String TOP = "observation.images.top";

  @TempDir Path tmp;

  @Test
  void recordedTimestampsStreamEveryFrameByPositionAsWrittenAndAreReported() {
    Path root = Datasets.recordedTimestampsV21();
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds = shuffled(root).build()) {
      for (Batch b : ds) {
        try (b) {
          double[] t = b.doubles("timestamp");
          List<Long> samples = PatternSamples.checked(b, List.of(TOP));
          for (int i = 0; i < samples.size(); i++) {
            long s = samples.get(i);
            assertTrue(seen.add(s), "twice: " + Samples.toString(s));
            double written =
                (float)
                    WriterConventions.LEROBOT
                        .withRowTimestamps(WriterConventions.RowTimestamps.RECORDED)
                        .rowTimestamp(Samples.episode(s), Samples.frame(s), 10);
            assertEquals(written, t[i], 1e-9, "the timestamp column as recorded");
          }
        }
      }
      assertEquals(80, seen.size());
      assertEquals(4, ds.timestamps().count(EpisodeTimestamps.Convention.RECORDED));
      assertTrue(
          ds.timestamps().largestRecordedDrift().orElseThrow().maxDriftSeconds() > 0.05,
          ds.timestamps().summary());
      assertEquals(ds.timestamps().summary(), ds.stats().timestamps().summary());
    }
  }

  @Test
  void strictRefusesTheRecordedTwinWhenBuiltNamingTheWayThrough() {
    DatasetException.BadMetadata e =
        assertThrows(
            DatasetException.BadMetadata.class,
            () ->
                shuffled(Datasets.recordedTimestampsV21())
                    .timestamps(TimestampRule.STRICT)
                    .build());
    assertTrue(e.file().endsWith("episode_000000.parquet"), e.file());
    assertTrue(e.getMessage().contains("as recorded"), e.getMessage());
    assertTrue(e.getMessage().contains("--timestamps position"), e.getMessage());
  }

  @Test
  void toTimestampAtTheLastFrameStreamsEveryFrameOfEachEpisodesOwnFile() {
    Path root = Datasets.lastFrameToTimestampV30();
    try (StreamingDataset ds = shuffled(root).build()) {
      assertEquals(3, ds.metadata().videoFiles().size(), "one file per episode");
      assertEquals(3, (int) ds.metadata().toTimestampConventions().get(ToTimestamp.LAST_FRAME));
      assertEquals(72, everyFrameOnce(ds));
    }
  }

  @Test
  void aSpanThatLeavesItsTablesToTimestampConventionIsRefusedNamingIt() throws Exception {
    Path root = copy(Datasets.lastFrameToTimestampV30());
    // Episode 1's to_timestamp a frame later: its end, where the others mark their last frame.
    ParquetEdit.rewrite(
        root.resolve("meta/episodes/chunk-000/file-000.parquet"),
        t -> {
          String to = "videos/" + TOP + "/to_timestamp";
          t.set(to, 1, t.doubleAt(to, 1) + 0.1);
        });
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> shuffled(root).build());
    assertTrue(
        e.getMessage().contains("episode 1: videos/" + TOP + "/to_timestamp"), e.getMessage());
    assertTrue(e.getMessage().contains("marks each episode's last frame"), e.getMessage());
  }

  @Test
  void float64VectorsDeclaredFloat32AreDeliveredAsFloat32WithTheirValues() throws Exception {
    Path root = Datasets.float64VectorsV21();
    int checked = 0;
    try (StreamingDataset ds = shuffled(root).build();
        BufferAllocator allocator = new RootAllocator()) {
      for (Batch b : ds) {
        try (b) {
          assertInstanceOf(
              Float4Vector.class,
              b.column("observation.state").getChildrenFromFields().get(0),
              "declared float32");
          long[] episode = b.longs("episode_index");
          long[] frame = b.longs("frame_index");
          double[] values = b.doubles("observation.state");
          for (int i = 0; i < b.size(); i++) {
            Path file = ds.metadata().episode((int) episode[i]).dataFile();
            try (VectorSchemaRoot rows =
                ParquetFrames.read(allocator, file, List.of("observation.state"))) {
              // Stored float64, three values a row (a list column, read back as Arrow's list).
              Float8Vector items = (Float8Vector) rows.getVector(0).getChildrenFromFields().get(0);
              for (int j = 0; j < 3; j++) {
                assertEquals(
                    (float) items.get((int) frame[i] * 3 + j), values[i * 3 + j], 0.0, "cast");
              }
            }
            checked++;
          }
        }
      }
    }
    assertEquals(36, checked);
  }

  @Test
  void aFloatColumnDeclaredAsAnIntegerIsRefusedNamingBothTypesAndTheCasts() throws Exception {
    Path root = copy(Datasets.float64VectorsV21());
    MetadataEdit.info(
        root,
        info ->
            ((com.fasterxml.jackson.databind.node.ObjectNode) info.path("features").path("action"))
                .put("dtype", "int64"));
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> shuffled(root).build());
    assertTrue(e.getMessage().contains("column action is"), e.getMessage());
    assertTrue(e.getMessage().contains("DOUBLE"), e.getMessage());
    assertTrue(e.getMessage().contains("declares int64"), e.getMessage());
    assertTrue(e.getMessage().contains("between float32 and float64"), e.getMessage());
  }

  @Test
  void videosInAnotherFolderAreReportedMissingBeforeTheTablesSpansNamingTheFolder()
      throws Exception {
    Path root = copy(Datasets.lastFrameToTimestampV30());
    Files.move(root.resolve("videos"), root.resolve("video"));
    // A span that is wrong too: the missing files come first all the same.
    ParquetEdit.rewrite(
        root.resolve("meta/episodes/chunk-000/file-000.parquet"),
        t -> t.set("videos/" + TOP + "/to_timestamp", 2, 99.0));
    DatasetException.MissingFile e =
        assertThrows(DatasetException.MissingFile.class, () -> shuffled(root).build());
    assertTrue(e.getMessage().contains("3 of the 4 files"), e.getMessage());
    assertTrue(e.getMessage().contains("video/" + TOP), e.getMessage());
    assertTrue(
        e.getMessage().contains("is there: the files are in another folder"), e.getMessage());
    assertFalse(e.getMessage().contains("to_timestamp"), e.getMessage());
  }

  @Test
  void aV21TemplateWithAV30FieldIsRefusedNamingTheFieldToWrite() throws Exception {
    Path root = copy(Datasets.float64VectorsV21());
    MetadataEdit.info(
        root,
        info ->
            info.put(
                "data_path", "data/chunk-{chunk_index:03d}/episode_{episode_index:06d}.parquet"));
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, () -> shuffled(root).build());
    assertTrue(e.getMessage().contains("uses {chunk_index}"), e.getMessage());
    assertTrue(
        e.getMessage()
            .contains("write {episode_chunk} for {chunk_index} in meta/info.json's" + " data_path"),
        e.getMessage());
  }

  @Test
  void aBufferLargerThanTheBudgetIsSizedToItInsteadOfDecodingLongGopsAtRandom() {
    Path root = Datasets.longGopH264(); // 3 episodes of 120 frames, a keyframe every 60
    // One worker: two prefetched batches of 8 RGB 96x64 samples, then room for 60 packed samples
    // (yuv420p, 9,216 B): 8 of them the batch being cut, so a buffer of 52, not the 200 asked.
    long batch = 8L * 96 * 64 * 3;
    StreamingDataset.Builder b =
        shuffled(root).workers(1).bufferSize(200).memoryBudgetBytes(2 * batch + 60 * 9_216L);
    try (StreamingDataset ds = b.build()) {
      assertEquals(52, ds.shuffleBufferSize());
      assertEquals(360, everyFrameOnce(ds));
      StreamCounters.Snapshot s = ds.stats();
      assertEquals(0, s.samplesDecodedOnExit(), "no sample decoded in random order");
      // Without the sizing (measured by forcing the buffer of 200): 252 samples decoded at
      // delivery in random order, up to a GOP of 60 frames each: amplification 16.96.
      assertTrue(s.amplification() <= 1.1, "decode amplification " + s.amplification());
    }
  }

  /** Every sample once, each frame the one its row names; returns how many. */
  private static int everyFrameOnce(StreamingDataset ds) {
    Set<Long> seen = new HashSet<>();
    for (Batch b : ds) {
      try (b) {
        for (long s : PatternSamples.checked(b, List.of(TOP))) {
          assertTrue(seen.add(s), "twice: " + Samples.toString(s));
        }
      }
    }
    return seen.size();
  }

  private Path copy(Path dataset) throws Exception {
    Path root = tmp.resolve("ds");
    V30MetadataTestAccess.copyTree(dataset, root);
    return root;
  }

  private static StreamingDataset.Builder shuffled(Path root) {
    return StreamingDataset.builder(root)
        .batchSize(8)
        .workers(2)
        .bufferSize(16)
        .returnUint8(true)
        .layout(FrameLayout.HWC);
  }
}
