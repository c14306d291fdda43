package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.robostream.dataset.synth.SyntheticDatasetSpec;
import org.robostream.dataset.synth.VideoCodecChoice;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.framecache.FrameCacheStats;
import org.robostream.testing.Fixtures;
import org.robostream.testing.StderrLines;
import org.robostream.video.FrameLayout;

/**
 * The frame cache with an episode selection of a v3.0 dataset whose episodes share their MP4s: it
 * reserves the selected episodes' frames of each file, not the whole file, so a cache sized for the
 * selection serves later epochs; a cache too small for what it must reserve says so once, counts
 * it, and the frames are still exact.
 */
class FrameCacheReservationTest {
  private static final String TOO_SMALL = "too small for the frames this loader reads";

  /** 8 episodes of 30 frames, 2 cameras of 64x64, every episode of a camera in one MP4. */
  private static Path sharedFiles() {
    return Fixtures.dataset(
        "shared-mp4-v30",
        new SyntheticDatasetSpec(
            Path.of("unused"),
            8,
            30,
            0.0,
            2,
            64,
            64,
            30,
            VideoCodecChoice.AV1,
            2,
            -1,
            SyntheticDatasetSpec.Layout.V30,
            100,
            200,
            SyntheticDatasetSpec.Content.PATTERN,
            4,
            3));
  }

  // A 64x64 yuv420p frame packed, and what a cache file of n frames in s spans takes: header and
  // slot table (64 bytes a slot) and span table (8 bytes a span), 4 KiB aligned, then the slots.
  private static final long FRAME = 64 * 64 * 3 / 2;

  private static long fileBytes(int frames, int spans) {
    long tables = 8192 + frames * 64L + spans * 8L;
    return ((tables + 4095) & ~4095L) + frames * FRAME;
  }

  /** Every sample's frames and rows are its own; returns the samples. */
  private static List<Long> epoch(StreamingDataset ds) {
    List<Long> samples = new java.util.ArrayList<>();
    for (Batch b : ds) {
      try (b) {
        samples.addAll(
            StreamingDatasetTest.check(b, ds.metadata().info().videoKeys(), 64, 64, false, 4));
      }
    }
    return samples;
  }

  private static StreamingDataset.Builder selected(String episodes, long cacheBytes) {
    return StreamingDataset.builder(sharedFiles())
        .environment(Map.of())
        .episodes(episodes)
        .workers(2)
        .batchSize(8)
        .bufferSize(20)
        .seed(3)
        .returnUint8(true)
        .layout(FrameLayout.HWC)
        .frameCache(FrameCacheOptions.memory(cacheBytes));
  }

  private static Set<Long> expectedSamples(int... episodes) {
    Set<Long> s = new HashSet<>();
    for (int e : episodes) {
      for (int f = 0; f < 30; f++) {
        s.add(Samples.of(e, f));
      }
    }
    return s;
  }

  /**
   * The user's report: a cache sized for the selected episodes' frames never hit, because each
   * reservation was the whole shared file. Three episodes of eight: each camera's whole file takes
   * 1.43 MiB, two of them more than the 1.5 MiB cache (they evicted each other, every epoch); the
   * selected spans take 0.54 MiB a camera, and both fit.
   */
  @Test
  void aCacheSizedForTheSelectedEpisodesServesTheSecondEpoch() {
    long selectedFrames = 3 * 30;
    long perCamera = fileBytes((int) selectedFrames, 3);
    assertTrue(2 * fileBytes(240, 0) > (3L << 19), "whole files would not fit together");
    try (StderrLines log = new StderrLines();
        StreamingDataset ds = selected("0,3,6", 3L << 19).build()) {
      assertEquals(expectedSamples(0, 3, 6), new HashSet<>(epoch(ds)));
      StreamCounters.Snapshot first = ds.stats();
      ds.setEpoch(1);
      assertEquals(expectedSamples(0, 3, 6), new HashSet<>(epoch(ds)));
      StreamCounters.Snapshot second = ds.stats();
      FrameCacheStats s = ds.frameCacheStats();
      long decodedInSecond = second.framesDecoded() - first.framesDecoded();
      assertTrue(s.hits() > 0, s.toString());
      assertTrue(
          decodedInSecond < first.framesDecoded(),
          "epoch 2 decoded " + decodedInSecond + ", epoch 1 " + first.framesDecoded());
      assertEquals(0, decodedInSecond, "every frame of epoch 2 served: " + s);
      assertEquals(
          2 * selectedFrames,
          second.framesFromCache() - first.framesFromCache(),
          "epoch 2 served both cameras' frames");
      assertEquals(2 * perCamera, s.neededBytes(), "the selected spans are reserved: " + s);
      assertEquals(2 * perCamera, s.fileBytes(), s.toString());
      assertEquals(0, s.refusedReservations(), s.toString());
      assertEquals(0, s.ownEvictions(), s.toString());
      assertEquals(0, s.evictions(), s.toString());
      assertTrue(!s.tooSmall(), s.toString());
      assertEquals(List.of(), log.containing(TOO_SMALL), "no warning for a cache that fits");
    }
  }

  /**
   * The same selection with 1 MiB: each camera's spans fit, both together do not, so the cache
   * evicts what it reads every epoch. One warning naming what is needed and what there is, a
   * counter, and frames exact over two epochs.
   */
  @Test
  void aCacheTooSmallForBothFilesWarnsOnceCountsAndStillDeliversExactFrames() {
    long perCamera = fileBytes(90, 3);
    try (StderrLines log = new StderrLines();
        StreamingDataset ds = selected("0,3,6", 1L << 20).build()) {
      for (int e = 0; e < 2; e++) {
        ds.setEpoch(e);
        assertEquals(expectedSamples(0, 3, 6), new HashSet<>(epoch(ds)), "epoch " + e);
      }
      FrameCacheStats s = ds.frameCacheStats();
      assertTrue(s.ownEvictions() > 0, s.toString());
      assertEquals(0, s.refusedReservations(), s.toString());
      assertTrue(s.tooSmall(), s.toString());
      assertEquals(2 * perCamera, s.neededBytes(), s.toString());
      assertNull(s.disabled(), s.toString());
      List<String> warnings = log.containing(TOO_SMALL);
      assertEquals(1, warnings.size(), "said once: " + warnings);
      String w = warnings.get(0);
      assertTrue(w.contains("it evicted the frames of "), w);
      assertTrue(w.contains("The cache holds 1 MiB (1048576 bytes)"), w);
      assertTrue(w.contains("need " + describe(2 * perCamera) + " together"), w);
      assertTrue(w.contains("--frame-cache memory:SIZE (library: FrameCacheOptions.memory"), w);
      assertTrue(w.contains("frameCacheStats().neededBytes()"), w);
    }
  }

  /**
   * Every episode selected: a whole file of each camera is 1.43 MiB, more than the 1 MiB cache on
   * its own, so neither is ever cached. One warning naming the frames and their bytes; both
   * reservations counted as refused; frames exact.
   */
  @Test
  void aReservationLargerThanTheWholeCacheIsRefusedOnceSaidAndCounted() {
    long whole = fileBytes(240, 0);
    try (StderrLines log = new StderrLines();
        StreamingDataset ds = selected("0-7", 1L << 20).build()) {
      for (int e = 0; e < 2; e++) {
        ds.setEpoch(e);
        assertEquals(expectedSamples(0, 1, 2, 3, 4, 5, 6, 7), new HashSet<>(epoch(ds)));
      }
      FrameCacheStats s = ds.frameCacheStats();
      assertEquals(2, s.refusedReservations(), "one per camera's file: " + s);
      assertEquals(0, s.hits(), s.toString());
      assertEquals(2 * 240, s.notCacheable(), s.toString());
      assertEquals(2 * whole, s.neededBytes(), s.toString());
      List<String> warnings = log.containing(TOO_SMALL);
      assertEquals(1, warnings.size(), "said once: " + warnings);
      assertTrue(
          warnings
              .get(0)
              .contains(
                  "the 240 frames it reads of "
                      + sharedFiles().toRealPath().resolve("videos")
                      + "/"),
          warnings.get(0));
      assertTrue(
          warnings.get(0).contains("need " + describe(whole) + " on their own"), warnings.get(0));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String describe(long bytes) {
    return org.robostream.ByteSize.describe(bytes);
  }
}
