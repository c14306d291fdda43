package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.DecoderCacheStats;
import org.robostream.video.Device;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;
import org.robostream.video.VideoNotFoundException;

@ExtendWith(NativeLeakCheck.class)
class DecoderCacheTest {
  static final List<String> FILES = List.of("h264_g1.mp4", "h264_g2.mp4", "h264_g30.mp4");

  static String path(int i) {
    return Fixtures.video(FILES.get(i)).toString();
  }

  @Test
  void lruEvictsAndClosesTheLeastRecentlyUsed() {
    try (DecoderCache cache =
        DecoderCache.forLocalFiles(OptionalInt.of(2), VideoDecoderOptions.defaults())) {
      Decoder a = cache.get(path(0), Device.CPU);
      Decoder b = cache.get(path(1), Device.CPU);
      assertSame(a, cache.get(path(0), Device.CPU)); // hit: a is now most recent
      cache.get(path(2), Device.CPU); // evicts b
      assertFalse(cache.contains(path(1), Device.CPU));
      assertTrue(cache.contains(path(0), Device.CPU));
      assertThrows(
          IllegalStateException.class,
          () -> b.decode(new double[] {0}, HostFrameBuffer.forVideo(b.info(), 1, FrameLayout.HWC)),
          "evicted decoder is closed");
      DecoderCacheStats s = cache.stats();
      assertEquals(1, s.hits());
      assertEquals(3, s.misses());
      assertEquals(1, s.evictions());
      assertEquals(2, s.size());
      assertEquals(0.25, s.hitRate(), 1e-12);
      assertTrue(
          cache.contains(path(0), Device.CPU) && !cache.contains(path(0), Device.CUDA),
          "the device is part of the key");
      a.decode(new double[] {0.0, 0.1}, HostFrameBuffer.forVideo(a.info(), 2, FrameLayout.HWC));
      assertEquals(2, cache.openDecoderStats().framesDelivered(), "summed over open decoders");
    }
  }

  @Test
  void aCallForSeveralSamplesCountsOneLookupEachAndPeeksCountNone() {
    try (DecoderCache cache =
        DecoderCache.forLocalFiles(OptionalInt.of(2), VideoDecoderOptions.defaults())) {
      Decoder peeked = cache.peek(path(0), Device.CPU, DecoderSlot.SHARED);
      assertEquals(0, cache.stats().hits() + cache.stats().misses(), "a peek is no lookup");
      // The first counted lookup of a decoder a peek opened is its miss; 4 samples: 1 + 3.
      assertSame(peeked, cache.get(path(0), Device.CPU, DecoderSlot.SHARED, 4));
      assertEquals(1, cache.stats().misses());
      assertEquals(3, cache.stats().hits());
      cache.get(path(0), Device.CPU, DecoderSlot.SHARED, 5); // open: 5 hits
      cache.get(path(1), Device.CPU, DecoderSlot.SHARED, 2); // opened: 1 miss, 1 hit
      assertSame(
          cache.get(path(1), Device.CPU, DecoderSlot.SHARED),
          cache.peek(path(1), Device.CPU, DecoderSlot.SHARED));
      DecoderCacheStats s = cache.stats();
      assertEquals(2, s.misses());
      assertEquals(10, s.hits());
      assertThrows(
          IllegalArgumentException.class,
          () -> cache.get(path(0), Device.CPU, DecoderSlot.SHARED, 0));
    }
  }

  @Test
  void eachSlotOfAFileHasItsOwnDecoder() {
    try (DecoderCache cache =
        DecoderCache.forLocalFiles(OptionalInt.of(8), VideoDecoderOptions.defaults())) {
      Decoder stream0top = cache.get(path(0), Device.CPU, DecoderSlot.of(0, 0));
      Decoder stream0wrist = cache.get(path(0), Device.CPU, DecoderSlot.of(0, 1));
      Decoder stream1top = cache.get(path(0), Device.CPU, DecoderSlot.of(1, 0));
      Decoder shared = cache.get(path(0), Device.CPU);
      assertEquals(4, cache.size(), "one decoder per (stream, camera) and one shared");
      assertSame(stream0top, cache.get(path(0), Device.CPU, DecoderSlot.of(0, 0)));
      assertSame(shared, cache.get(path(0), Device.CPU, DecoderSlot.SHARED));
      assertTrue(stream0top != stream0wrist && stream0top != stream1top && stream0top != shared);
      assertTrue(cache.contains(path(0), Device.CPU));
      assertThrows(IllegalArgumentException.class, () -> DecoderSlot.of(-2, 0));
      assertThrows(IllegalArgumentException.class, () -> DecoderSlot.of(0, -1));
    }
  }

  @Test
  void capacityFromArgumentEnvironmentOrDefault() {
    assertEquals(100, DecoderCache.capacityFromEnvironment(Map.of()));
    assertEquals(7, DecoderCache.capacityFromEnvironment(Map.of(DecoderCache.LEROBOT_ENV, "7")));
    assertEquals(
        3,
        DecoderCache.capacityFromEnvironment(
            Map.of(DecoderCache.ENV, "3", DecoderCache.LEROBOT_ENV, "7")));
    for (String unbounded : new String[] {"none", "None", "-1", "unbounded"}) {
      assertEquals(
          Integer.MAX_VALUE,
          DecoderCache.capacityFromEnvironment(Map.of(DecoderCache.ENV, unbounded)));
    }
    for (String bad : new String[] {"0", "-5", "lots", ""}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> DecoderCache.capacityFromEnvironment(Map.of(DecoderCache.ENV, bad)));
      assertTrue(e.getMessage().contains(DecoderCache.ENV), e.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> DecoderCache.forLocalFiles(OptionalInt.of(0), VideoDecoderOptions.defaults()));
    try (DecoderCache c =
        DecoderCache.forLocalFiles(OptionalInt.of(-1), VideoDecoderOptions.defaults())) {
      assertTrue(c.isUnbounded());
    }
  }

  @Test
  void failedOpenInsertsNothing() {
    try (DecoderCache cache =
        DecoderCache.forLocalFiles(OptionalInt.of(2), VideoDecoderOptions.defaults())) {
      assertThrows(VideoNotFoundException.class, () -> cache.get("/no/such.mp4", Device.CPU));
      assertEquals(0, cache.size());
      assertEquals(1, cache.stats().misses());
    }
  }

  @Test
  void sharedCountersAreExactAcrossWorkerCaches() throws Exception {
    DecoderCacheCounters shared = new DecoderCacheCounters();
    int workers = 4;
    int lookups = 300;
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        futures.add(
            pool.submit(
                () -> {
                  try (DecoderCache cache =
                      new DecoderCache(
                          OptionalInt.of(1),
                          (file, device, sibling) -> Decoder.open(java.nio.file.Path.of(file)),
                          shared)) {
                    for (int i = 0; i < lookups; i++) {
                      cache.get(path(i % 20 == 19 ? 1 : 0), Device.CPU);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(workers * lookups, shared.hits() + shared.misses());
    // Per worker: first lookup misses, each switch to file 1 and back misses and evicts.
    long perWorkerMisses = 2 * (lookups / 20); // 1 + 15 switches to file 1 + 14 back
    assertEquals(workers * perWorkerMisses, shared.misses());
    assertEquals(workers * (perWorkerMisses - 1), shared.evictions());
    assertEquals(-1, shared.snapshot().size());
  }
}
