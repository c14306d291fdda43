package org.robostream.testing;

import java.nio.file.Path;
import org.robostream.stream.StreamingDataset;
import org.robostream.video.FrameLayout;

/** Loader settings several tests share, so that each is said once. */
public final class LoaderSettings {
  private LoaderSettings() {}

  /** Batches of 8 in file order (no shuffle), uint8 HWC frames: samples compared one by one. */
  public static StreamingDataset.Builder inOrder(Path root) {
    return StreamingDataset.builder(root)
        .batchSize(8)
        .shuffle(false)
        .returnUint8(true)
        .layout(FrameLayout.HWC);
  }

  /**
   * A shuffled epoch of the pattern dataset from two workers (batches of 8, buffer 20, 3 shards),
   * uint8 HWC: batches from both workers are in flight at once.
   */
  public static StreamingDataset.Builder twoWorkerEpoch() {
    return StreamingDataset.builder(Datasets.patternV30())
        .batchSize(8)
        .workers(2)
        .bufferSize(20)
        .maxNumShards(3)
        .returnUint8(true)
        .layout(FrameLayout.HWC);
  }
}
