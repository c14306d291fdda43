package org.robostream.stream;

import java.nio.file.Path;
import java.util.function.IntToDoubleFunction;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.ParquetEdit;
import org.robostream.video.FrameLayout;

/**
 * Synthetic twins of each shape of timestamp column: copies of the tiny v2.1 pattern dataset (3
 * episodes of 10 frames at 20 fps, 2 cameras 64x48, every frame painted with its episode and frame)
 * whose episode 1 rows carry the timestamps a function gives. Stateless.
 */
final class TimestampTwins {
  static final int FPS = 20;
  static final double FRAME = 1.0 / FPS;

  /** Row f at f / fps: LeRobot's writers. */
  static final IntToDoubleFunction AT_FRAME_INDEX = f -> f * FRAME;

  /** Row f at (f + 1) / fps on every row: GR00T's demo data. */
  static final IntToDoubleFunction ONE_FRAME_LATE = f -> (f + 1) * FRAME;

  /**
   * More than half a frame off, differently per row, as cr5-v21-sample's rows are: rows 1, 4 and 7
   * nearest the next frame, rows 3, 5 and 9 nearest the one before, the others at f / fps.
   */
  static final IntToDoubleFunction JITTERED =
      f -> f * FRAME + (f % 3 == 1 ? 0.031 : -0.027 * (f % 2));

  private TimestampTwins() {}

  /** A copy of the dataset at {@code root} whose episode 1 row f has {@code timestamp(f)}. */
  static Path write(Path root, IntToDoubleFunction timestamp) throws Exception {
    V30MetadataTestAccess.copyTree(Datasets.tinyPatternV21(), root);
    ParquetEdit.rewrite(
        root.resolve("data/chunk-000/episode_000001.parquet"),
        t -> {
          for (int f = 0; f < t.rows(); f++) {
            t.set("timestamp", f, timestamp.applyAsDouble(f));
          }
        });
    return root;
  }

  /** The frame nearest {@code seconds} at 20 fps (ties: the earlier, as LeRobot's argmin). */
  static int nearestFrame(double seconds) {
    return (int) Math.ceil(seconds * FPS - 0.5);
  }

  /** In order, 4 samples a batch, uint8 HWC: what the tests read frames from. */
  static StreamingDataset.Builder stream(Path root) {
    return StreamingDataset.builder(root)
        .batchSize(4)
        .shuffle(false)
        .returnUint8(true)
        .layout(FrameLayout.HWC);
  }
}
