package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.TimestampRule;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.stream.Batch;
import org.robostream.stream.SampleException;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;
import org.robostream.testing.ParquetEdit;

/**
 * {@link TimestampRule#LEROBOT} on videos read from the Hub, which are checked when their file's
 * first episode is read (checking them all at open would fetch every file's index first): there
 * each row's frame is picked by its timestamp as for local videos, the same frames, and a row
 * LeRobot would show another episode's frame for stops the stream at that episode's first read,
 * naming the row, not later. The dataset: the tiny v3.0 pattern dataset (3 episodes of 12 frames at
 * 20 fps in one video file per camera) with episode 0 stamped one frame late but its last row, and
 * episode 1 one frame late on every row.
 */
class HubTimestampRulesTest {
  static final double FRAME = 1 / 20.0;

  @TempDir static Path tmp;
  @AutoClose static HubServer hub;
  static Path local;

  @BeforeAll
  static void startHub() throws Exception {
    local = tmp.resolve("late");
    V30MetadataTestAccess.copyTree(Datasets.tinyPatternV30(), local);
    ParquetEdit.rewrite(
        local.resolve("data/chunk-000/file-000.parquet"),
        t -> {
          for (int r = 0; r < t.rows(); r++) {
            long episode = t.longAt("episode_index", r);
            long f = t.longAt("frame_index", r);
            if (episode == 0) {
              t.set("timestamp", r, Math.min(f + 1, 11) * FRAME);
            } else if (episode == 1) {
              t.set("timestamp", r, (f + 1) * FRAME);
            }
          }
        });
    hub = HubServer.start(tmp.resolve("nginx"), local);
  }

  @Test
  void rowsShowTheFramesNearestTheirTimestampsAsTheLocalCopysDo() throws Exception {
    HubDataset ds = prepare("cache-0", 0);
    List<String> fromHub;
    try (StreamingDataset s =
        HubEpochs.configure(StreamingDataset.builder(ds))
            .timestamps(TimestampRule.LEROBOT)
            .build()) {
      fromHub = HubEpochs.epoch(s);
    }
    try (StreamingDataset s =
        HubEpochs.configure(StreamingDataset.builder(local))
            .episodes(List.of(0))
            .timestamps(TimestampRule.LEROBOT)
            .build()) {
      assertEquals(HubEpochs.epoch(s), fromHub);
    }
    try (StreamingDataset s =
        HubEpochs.configure(StreamingDataset.builder(local)).episodes(List.of(0)).build()) {
      assertTrue(!HubEpochs.epoch(s).equals(fromHub), "by position: other frames");
    }
  }

  @Test
  void aRowShowingAnotherEpisodesFrameStopsTheStreamWhenItsFileIsFirstRead() throws Exception {
    HubDataset ds = prepare("cache-1", 1);
    try (StreamingDataset s =
        HubEpochs.configure(StreamingDataset.builder(ds))
            .timestamps(TimestampRule.LEROBOT)
            .build()) {
      RuntimeException e =
          assertThrows(
              RuntimeException.class,
              () -> {
                for (Batch b : s) {
                  b.close();
                }
              });
      assertInstanceOf(SampleException.class, e, "a worker's error, raised by the iterator");
      assertInstanceOf(DatasetException.BadMetadata.class, e.getCause());
      assertLastRowRefused(e.getMessage());
    }
    // The local copy is refused when built, with the same words.
    DatasetException.BadMetadata e =
        assertThrows(
            DatasetException.BadMetadata.class,
            () ->
                StreamingDataset.builder(local)
                    .episodes(List.of(1))
                    .timestamps(TimestampRule.LEROBOT)
                    .build());
    assertLastRowRefused(e.getMessage());
  }

  private static void assertLastRowRefused(String m) {
    assertTrue(m.contains("episode 1 (observation.images.top) row 11 (its last row)"), m);
    assertTrue(m.contains("is not this episode's"), m);
    assertTrue(m.contains("LeRobot would show another episode's frame for this row"), m);
    assertTrue(m.contains("--timestamps position"), m);
  }

  private static HubDataset prepare(String cache, int episode) {
    HubHttp http = HubServer.client(hub.endpoint(), tmp.resolve(cache));
    return HubDataset.prepare(
        http, HubServer.REPO, null, null, Optional.of(List.of(episode)), Optional.empty(), f -> {});
  }
}
