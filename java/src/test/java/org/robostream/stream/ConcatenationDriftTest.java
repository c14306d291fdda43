package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.RobostreamException;
import org.robostream.codec.Decoder;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.ParquetEdit;
import org.robostream.video.FrameLayout;

/**
 * Real v3.0 files drift: LeRobot's concatenation shifts each appended episode by up to a
 * millisecond (docs/DESIGN.md, "Semantics"). A file of many episodes must still stream exactly, by
 * position, while a shift no concatenation explains is refused.
 */
class ConcatenationDriftTest {
  private static final String CAMERA = "observation.images.top";

  private static StreamingDataset.Builder stream(Path root) {
    return StreamingDataset.builder(root)
        .batchSize(16)
        .workers(2)
        .returnUint8(true)
        .layout(FrameLayout.HWC);
  }

  @Test
  void aFileOfSixtyDriftingEpisodesStreamsEveryFrameOnce() {
    Path root = Datasets.concatenationDrift();
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds = stream(root).build()) {
      for (Batch b : ds) {
        try (b) {
          for (PatternSamples.Delivered d : PatternSamples.of(b, List.of(CAMERA))) {
            assertTrue(d.matches(), d.toString());
            assertTrue(seen.add(d.sample()), "delivered twice: " + d);
          }
        }
      }
      // The fixture really drifts past half a frame (16.7 ms at 30 fps): 59 x 0.326 ms.
      assertTrue(
          ds.stats().maxDriftSeconds() > 0.5 / 30, "max drift " + ds.stats().maxDriftSeconds());
    }
    assertEquals(Datasets.totalFrames(root), seen.size());
  }

  @Test
  void aShiftNoConcatenationExplainsIsRefused() {
    Path root = Datasets.episodeShiftedTooFar();
    RobostreamException e =
        assertThrows(
            RobostreamException.class,
            () -> {
              try (StreamingDataset ds = stream(root).build()) {
                for (Batch b : ds) {
                  b.close();
                }
              }
            });
    String message = e.getMessage();
    assertTrue(message.contains("episode 1 (" + CAMERA + ")"), message);
    assertTrue(message.contains("chunk-000/file-000.mp4"), message);
    assertTrue(message.contains("concatenation shift"), message);
  }

  @Test
  void aTableThatRecordsTheShiftStreamsToo(@TempDir Path tmp) throws Exception {
    // A writer could record each episode's from_timestamp where its frames really start (the
    // file's duration after concatenation): late by the same shift. Position still decides.
    Path root = tmp.resolve("ds");
    V30MetadataTestAccess.copyTree(Datasets.concatenationDrift(), root);
    double[] starts;
    try (Decoder d = Decoder.open(root.resolve("videos/" + CAMERA + "/chunk-000/file-000.mp4"))) {
      double[] pts = d.framePtsSeconds();
      starts = new double[pts.length / 4];
      for (int e = 0; e < starts.length; e++) {
        starts[e] = pts[4 * e] - pts[0];
      }
    }
    assertTrue(starts[59] - 59 * 4 / 30.0 > 0.5 / 30, "the fixture drifts: " + starts[59]);
    String from = "videos/" + CAMERA + "/from_timestamp";
    String to = "videos/" + CAMERA + "/to_timestamp";
    ParquetEdit.rewrite(
        root.resolve("meta/episodes/chunk-000/file-000.parquet"),
        t -> {
          for (int e = 0; e < starts.length; e++) {
            t.set(from, e, starts[e]).set(to, e, starts[e] + 4 / 30.0);
          }
        });
    int delivered = 0;
    try (StreamingDataset ds = stream(root).build()) {
      for (Batch b : ds) {
        try (b) {
          for (PatternSamples.Delivered d : PatternSamples.of(b, List.of(CAMERA))) {
            assertTrue(d.matches(), d.toString());
            delivered++;
          }
        }
      }
    }
    assertEquals(240, delivered);
  }
}
