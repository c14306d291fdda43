package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.robostream.NativeException;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeResources;
import org.robostream.source.LocalFileByteSource;
import org.robostream.source.VideoSources;
import org.robostream.testing.Datasets;

/**
 * A native failure inside a decode callback — the batch pool refusing the block a decoder converts
 * a frame into — reaches the consumer as a {@link SampleException} naming the file, the episode and
 * the camera, with the native error as its cause (before, the bare {@code NativeException} came out
 * of {@code next()}, naming nothing).
 */
class NativeFailureInDecodeTest {
  @Test
  void aPoolAllocationFailingWhileDecodingNamesFileEpisodeAndCamera() {
    long objects = NativeResources.liveObjects();
    // A worker opening a video: from then on that thread's native batch allocations fail
    // (rs_debug_fail_allocations is per thread), the first being the pool block of the first
    // frame decoded. The build's header reads (on this thread) are left alone.
    VideoSources failing =
        file -> {
          if (Thread.currentThread().getName().startsWith("robostream-worker-")) {
            NativeCore.rs_debug_fail_allocations(0, Long.MAX_VALUE);
          }
          return LocalFileByteSource.open(file);
        };
    try (StreamingDataset ds =
        StreamingDataset.builder(Datasets.patternV30())
            .batchSize(4)
            .bufferSize(8)
            .maxNumShards(2)
            .workers(1)
            .shuffle(false)
            .returnUint8(true)
            .deviceBatches(true)
            .videoSources(failing)
            .build()) {
      SampleException e = assertThrows(SampleException.class, () -> ds.iterator().next());
      assertInstanceOf(NativeException.OutOfMemory.class, e.getCause(), e.toString());
      assertEquals(0, e.episode(), e.getMessage());
      assertEquals("observation.images.top", e.camera(), e.getMessage());
      assertTrue(
          e.file().endsWith("videos/observation.images.top/chunk-000/file-000.mp4"), e.file());
      assertTrue(
          e.getMessage().startsWith(e.file() + ": episode 0, camera" + " observation.images.top: "),
          e.getMessage());
      // The trace shows where the fetch failed, not where the worker made it public.
      assertEquals(
          "org.robostream.fetch.FrameFetcher",
          e.getStackTrace()[0].getClassName(),
          java.util.Arrays.toString(e.getStackTrace()));
    }
    assertEquals(objects, NativeResources.liveObjects(), "everything freed after the failure");
  }
}
