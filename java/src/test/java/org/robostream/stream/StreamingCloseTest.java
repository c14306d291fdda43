package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.robostream.nativecore.NativeResources;
import org.robostream.testing.Datasets;

/**
 * {@code close()} while a worker cannot be stopped: the worker keeps the batch pool and its frame
 * store (whose blocks it holds) until it ends, then everything is freed, instead of running on
 * memory the dataset already freed. On a GPU a worker is held like this inside native code while it
 * waits up to 60 s for an NVDEC session; that wait cannot run here, so a read of the video holds
 * the worker instead, ignoring interrupts as a native wait does.
 */
class StreamingCloseTest {

  @Test
  void closeLeavesTheMemoryOfAWorkerThatCannotStopUntilItEnds() throws Exception {
    long objectsBefore = NativeResources.liveObjects();
    long bytesBefore = NativeResources.liveBytes();
    // The second file opened: a worker decodes a sample camera by camera, so by then it holds
    // the first camera's frames in pool blocks.
    HeldVideoReads videos = new HeldVideoReads(2, false);
    StreamingDataset ds =
        StreamingDataset.builder(Datasets.patternV30())
            .batchSize(4)
            .workers(1)
            .bufferSize(16)
            .maxNumShards(2)
            .returnUint8(true)
            .deviceBatches(true)
            .videoSources(videos)
            .build();
    Iterator<Batch> batches = ds.iterator();
    try {
      assertTrue(videos.holding.await(60, TimeUnit.SECONDS), "the worker reached the held read");
      assertTrue(NativeResources.liveBytes() > bytesBefore, "the worker holds pool blocks");
      ds.close(); // gives up waiting for the worker after 10 s
      assertTrue(
          NativeResources.liveBytes() > bytesBefore,
          "the pool's blocks stay while the worker that holds them runs");
    } finally {
      videos.release.countDown();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while ((NativeResources.liveObjects() != objectsBefore
            || NativeResources.liveBytes() != bytesBefore)
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(
        bytesBefore,
        NativeResources.liveBytes(),
        "the worker returned its blocks and the last holder freed the pool");
    assertEquals(objectsBefore, NativeResources.liveObjects());
    IllegalStateException stale =
        assertThrows(
            IllegalStateException.class, batches::hasNext, "a closed stream's iterator says so");
    assertTrue(stale.getMessage().contains("the dataset was closed"), stale.getMessage());
  }
}
