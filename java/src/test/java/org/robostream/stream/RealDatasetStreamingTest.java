package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.codec.Decoder;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.dataset.DatasetException;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;
import org.robostream.video.FrameLayout;

/** The real G1 sample (episodes 1, 2, 4) end to end, and bad files raised with their names. */
class RealDatasetStreamingTest {
  @TempDir Path tmp;

  @Test
  void episodesOneTwoFourYieldEveryFrameOnceWithTheRightRows() {
    Path root = Fixtures.sharedDataset();
    Set<Long> seen = new HashSet<>();
    int checkedFrames = 0;
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .episodes(List.of(1, 2, 4))
            .batchSize(32)
            .workers(2)
            .bufferSize(64)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      String camera = "observation.images.cam_high";
      for (Batch b : ds) {
        try (b) {
          long[] episode = b.longs("episode_index");
          long[] frame = b.longs("frame_index");
          long[] index = b.longs("index");
          double[] timestamp = b.doubles("timestamp");
          assertEquals(26 * b.size(), b.doubles("observation.state").length);
          for (int i = 0; i < b.size(); i++) {
            assertTrue(seen.add(Samples.of((int) episode[i], (int) frame[i])));
            assertEquals(frame[i] / 30.0, timestamp[i], 1e-4);
            assertEquals(
                ds.metadata().episode((int) episode[i]).datasetFromIndex() + frame[i],
                index[i],
                "global index of episode " + episode[i] + " frame " + frame[i]);
          }
          if (checkedFrames < 4) {
            // The batch's first frame is the one the decoder gives for its timestamp.
            Path video = ds.metadata().videoFile((int) episode[0], camera);
            try (Decoder d = Decoder.open(video)) {
              HostFrameBuffer ref = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
              d.decode(new double[] {frame[0] / 30.0}, ref);
              ByteBuffer got = b.frames(camera).sample(0);
              byte[] mine = new byte[got.remaining()];
              got.get(mine);
              assertArrayEquals(ref.frameBytes(0), mine);
            }
            checkedFrames++;
          }
        }
      }
      int total = ds.metadata().episodes().stream().mapToInt(e -> e.length()).sum();
      assertEquals(total, seen.size());
    }
  }

  @Test
  void askingForEpisodeZeroNamesTheMissingFile() {
    Path root = Fixtures.sharedDataset(); // outside the lambda: a missing dataset skips
    DatasetException.MissingFile e =
        assertThrows(
            DatasetException.MissingFile.class,
            () -> StreamingDataset.builder(root).episodes(List.of(0, 1)).build());
    assertTrue(e.getMessage().contains("episode_000000"), e.getMessage());
  }

  @Test
  void aCorruptVideoIsRefusedWhenTheStreamIsBuiltNamingFileEpisodeAndCamera() throws Exception {
    Path copy = tmp.resolve("ds");
    org.robostream.dataset.V30MetadataTestAccess.copyTree(Datasets.patternV21(), copy);
    Path video = copy.resolve("videos/chunk-000/observation.images.top/episode_000003.mp4");
    byte[] bytes = Files.readAllBytes(video);
    Files.write(video, java.util.Arrays.copyOf(bytes, bytes.length / 3));
    // Every local video's container and index is read when the stream is built: a file cut short
    // is found before any episode is delivered, not half way through the epoch.
    DatasetException.CorruptFile e =
        assertThrows(
            DatasetException.CorruptFile.class,
            () -> StreamingDataset.builder(copy).batchSize(4).shuffle(false).build());
    assertEquals(video.toString(), e.file());
    assertTrue(e.getMessage().contains("episode 3, camera observation.images.top"), e.getMessage());
  }

  @Test
  void aCorruptParquetFileIsRefusedWhenTheStreamIsBuiltNamingTheFile() throws Exception {
    Path copy = tmp.resolve("ds");
    org.robostream.dataset.V30MetadataTestAccess.copyTree(Datasets.patternV21(), copy);
    Path data = copy.resolve("data/chunk-000/episode_000002.parquet");
    Files.writeString(data, "PAR1 this is not a parquet file");
    // Data files are checked against the metadata before the first batch (no episode's frames
    // are delivered from a dataset that turns out to be broken later).
    DatasetException.CorruptFile e =
        assertThrows(
            DatasetException.CorruptFile.class,
            () -> StreamingDataset.builder(copy).batchSize(4).shuffle(false).build());
    assertTrue(e.getMessage().contains("episode_000002.parquet"), e.getMessage());
  }
}
