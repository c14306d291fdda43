package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.robostream.testing.Datasets;
import org.robostream.video.DecoderCacheStats;
import org.robostream.video.FrameLayout;

/**
 * The loader's decoder-cache size: the builder's value, else ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE
 * (or LeRobot's variable), else its own default — observed through the evictions of a real epoch.
 */
class DecoderCacheSizeTest {

  /** One worker, one epoch of the two-camera pattern dataset; the cache's counters at the end. */
  private static DecoderCacheStats epochWith(StreamingDataset.Builder b) {
    try (StreamingDataset ds = b.batchSize(8).workers(1).returnUint8(true).build()) {
      int samples = 0;
      for (Batch batch : ds) {
        try (batch) {
          samples += batch.size();
        }
      }
      assertEquals(StreamingDatasetTest.totalFrames(Datasets.patternV30()), samples);
      return ds.decoderCacheStats();
    }
  }

  private static StreamingDataset.Builder patternWith(Map<String, String> env) {
    Path root = Datasets.patternV30();
    return StreamingDataset.builder(root).environment(env);
  }

  @Test
  void theEnvironmentSizesTheLoadersCache() {
    DecoderCacheStats byDefault = epochWith(patternWith(Map.of()));
    assertEquals(0, byDefault.evictions(), "the default holds every live stream's cameras");
    DecoderCacheStats one =
        epochWith(patternWith(Map.of("ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE", "1")));
    assertTrue(one.evictions() > 0, "a cache of 1 with two cameras must evict: " + one);
    DecoderCacheStats lerobot =
        epochWith(patternWith(Map.of("LEROBOT_VIDEO_DECODER_CACHE_SIZE", "1")));
    assertTrue(lerobot.evictions() > 0, "LeRobot's variable applies too: " + lerobot);
  }

  /**
   * A cache smaller than the live streams' cameras (3 streams x 2 cameras per worker here) closes
   * decoders that streams still need; reopened, they must go on from the right frame. Host and
   * device batches: the device path decodes longer runs and seeks at every call.
   */
  @ParameterizedTest(name = "cache of {0}, device batches {1}")
  @CsvSource({"1, false", "2, false", "1, true", "2, true"})
  void aCacheSmallerThanTheLiveStreamsStillDeliversEveryFrameExactlyOnce(
      int size, boolean deviceBatches) {
    Path root = Datasets.patternV30();
    Set<Long> seen = new HashSet<>();
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .environment(Map.of())
            .decoderCacheSize(size)
            .deviceBatches(deviceBatches)
            .workers(2)
            .maxNumShards(3)
            .bufferSize(20)
            .batchSize(8)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      for (Batch b : ds) {
        try (b) {
          for (long s : PatternSamples.checked(b, ds.metadata().info().videoKeys())) {
            assertTrue(seen.add(s), "delivered twice: " + Samples.toString(s));
          }
        }
      }
      DecoderCacheStats stats = ds.decoderCacheStats();
      assertTrue(stats.evictions() > 0, "decoders were evicted while streams used them: " + stats);
      // One decoder per (episode, camera) plus one per camera for delivery-time decoding
      // would be opened once each without evictions.
      int cameras = ds.metadata().info().videoKeys().size();
      int keys = ds.metadata().episodes().size() * cameras + cameras;
      assertTrue(stats.misses() > keys, "evicted decoders were reopened: " + stats);
    }
    assertEquals(Datasets.totalFrames(root), seen.size());
  }

  @Test
  void theBuildersSizeWinsOverTheEnvironment() {
    DecoderCacheStats stats =
        epochWith(
            patternWith(Map.of("ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE", "1")).decoderCacheSize(-1));
    assertEquals(0, stats.evictions(), "-1 is unbounded and overrides the variable");
  }

  @Test
  void aMalformedSettingFailsTheBuildNamingTheVariable() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> patternWith(Map.of("ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE", "abc")).build());
    assertTrue(e.getMessage().contains("ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE"), e.getMessage());
    assertTrue(e.getMessage().contains("abc"), e.getMessage());
    IllegalArgumentException zero =
        assertThrows(
            IllegalArgumentException.class,
            () -> patternWith(Map.of()).decoderCacheSize(0).build());
    assertTrue(zero.getMessage().contains("decoderCacheSize"), zero.getMessage());
  }
}
