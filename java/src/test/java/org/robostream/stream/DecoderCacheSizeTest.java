package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.robostream.testing.Datasets;
import org.robostream.video.DecoderCacheStats;

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
    DecoderCacheStats one = epochWith(patternWith(
        Map.of("ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE", "1")));
    assertTrue(one.evictions() > 0, "a cache of 1 with two cameras must evict: " + one);
    DecoderCacheStats lerobot = epochWith(patternWith(
        Map.of("LEROBOT_VIDEO_DECODER_CACHE_SIZE", "1")));
    assertTrue(lerobot.evictions() > 0, "LeRobot's variable applies too: " + lerobot);
  }

  @Test
  void theBuildersSizeWinsOverTheEnvironment() {
    DecoderCacheStats stats = epochWith(patternWith(
        Map.of("ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE", "1")).decoderCacheSize(-1));
    assertEquals(0, stats.evictions(), "-1 is unbounded and overrides the variable");
  }

  @Test
  void aMalformedSettingFailsTheBuildNamingTheVariable() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> patternWith(Map.of("ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE", "abc")).build());
    assertTrue(e.getMessage().contains("ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE"), e.getMessage());
    assertTrue(e.getMessage().contains("abc"), e.getMessage());
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
        () -> patternWith(Map.of()).decoderCacheSize(0).build());
    assertTrue(zero.getMessage().contains("decoderCacheSize"), zero.getMessage());
  }
}
