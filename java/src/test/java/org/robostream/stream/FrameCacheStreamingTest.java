package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.robostream.dataset.synth.CameraFormat;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.framecache.FrameCacheStats;
import org.robostream.testing.Datasets;
import org.robostream.video.FrameLayout;

/**
 * The decoded-frame cache in the loader: whole epochs with the cache are byte for byte the epochs
 * without it (host and device path, uint8 and float32, windows, image features), the first epoch
 * decodes and fills it, later epochs decode nothing and serve every frame from it.
 */
class FrameCacheStreamingTest {
  @TempDir Path tmp;

  /** One epoch's digest per batch (see {@link #digest}). */
  static List<String> epoch(StreamingDataset ds) throws Exception {
    List<String> digests = new ArrayList<>();
    for (Batch b : ds) {
      try (b) {
        digests.add(digest(b));
      }
    }
    return digests;
  }

  /** A batch's digest: sample indices, every camera's frames, pad masks. */
  static String digest(Batch b) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    for (long i : b.longs("index")) {
      md.update(Long.toString(i).getBytes());
    }
    for (String camera : b.cameras()) {
      ByteBuffer data = b.frames(camera).data();
      md.update(data);
      if (b.columnNames().contains(camera + "_is_pad")) {
        for (boolean pad : b.booleans(camera + "_is_pad")) {
          md.update((byte) (pad ? 1 : 0));
        }
      }
    }
    return java.util.HexFormat.of().formatHex(md.digest());
  }

  private record Run(
      List<List<String>> epochs, List<StreamCounters.Snapshot> after, FrameCacheStats cache) {}

  private static Run run(StreamingDataset.Builder b, int epochs) throws Exception {
    List<List<String>> all = new ArrayList<>();
    List<StreamCounters.Snapshot> after = new ArrayList<>();
    try (StreamingDataset ds = b.build()) {
      for (int e = 0; e < epochs; e++) {
        ds.setEpoch(e);
        all.add(epoch(ds));
        after.add(ds.stats());
      }
      return new Run(all, after, ds.frameCacheStats());
    }
  }

  private static StreamingDataset.Builder pattern(
      Path root, UnaryOperator<StreamingDataset.Builder> more) {
    return more.apply(
        StreamingDataset.builder(root)
            .environment(Map.of())
            .workers(2)
            .batchSize(8)
            .bufferSize(40)
            .seed(7));
  }

  private void sameEpochsAndLaterOnesFromTheCache(
      Path root, UnaryOperator<StreamingDataset.Builder> settings, boolean everyFrameOncePerEpoch)
      throws Exception {
    Run plain = run(pattern(root, settings), 3);
    Run cached =
        run(
            pattern(root, settings)
                .frameCache(FrameCacheOptions.directory(tmp.resolve("cache"), 256L << 20)),
            3);
    for (int e = 0; e < 3; e++) {
      assertEquals(plain.epochs().get(e), cached.epochs().get(e), "epoch " + e + " differs");
    }
    StreamCounters.Snapshot first = cached.after().get(0);
    StreamCounters.Snapshot third = cached.after().get(2);
    if (everyFrameOncePerEpoch) {
      assertEquals(0, first.framesFromCache(), "the first epoch decodes: " + first);
    }
    assertEquals(
        first.framesDecoded(),
        third.framesDecoded(),
        "epochs 2 and 3 decode nothing: " + cached.after());
    assertEquals(
        third.framesDelivered() - first.framesDelivered(),
        third.framesFromCache() - first.framesFromCache(),
        "epochs 2 and 3 serve every frame from the cache: " + cached.after());
    FrameCacheStats s = cached.cache();
    assertTrue(s.stored() > 0 && s.hits() > 0, s.toString());
    assertNull(s.disabled(), s.toString());
    assertEquals(0, s.checksumFailures(), s.toString());
  }

  @ParameterizedTest(name = "device batches {0}, uint8 {1}, {2}")
  @CsvSource({"false, true, HWC", "false, false, CHW", "true, true, CHW", "true, false, HWC"})
  void epochsWithTheCacheAreTheEpochsWithout(boolean device, boolean uint8, FrameLayout layout)
      throws Exception {
    sameEpochsAndLaterOnesFromTheCache(
        Datasets.patternV30(),
        b -> b.deviceBatches(device).returnUint8(uint8).layout(layout),
        true);
  }

  /**
   * A cache file under a video's identity with slots for another frame count (written by another
   * build, or by hand) is not that video's: its frames are decoded, the epoch is the epoch without
   * a cache (before: an IndexOutOfBoundsException out of a slot lookup failed the epoch).
   */
  @Test
  void aFileWithAnotherFrameCountUnderTheIdentityIsNeverRead() throws Exception {
    Path root = Datasets.patternV30();
    Path dir = tmp.resolve("other-count");
    try (org.robostream.framecache.FrameCache forged =
        org.robostream.framecache.FrameCache.open(FrameCacheOptions.directory(dir, 64L << 20))) {
      try (var videos = java.nio.file.Files.walk(root.resolve("videos"))) {
        for (Path v : videos.filter(p -> p.toString().endsWith(".mp4")).toList()) {
          String identity = org.robostream.source.VideoSources.localIdentity(v);
          forged.acquireOrCreate(identity, 3, 6144).release(); // far fewer slots than frames
        }
      }
    }
    Run plain = run(pattern(root, b -> b.returnUint8(true)), 1);
    Run cached =
        run(
            pattern(root, b -> b.returnUint8(true))
                .frameCache(FrameCacheOptions.directory(dir, 64L << 20)),
            1);
    assertEquals(plain.epochs(), cached.epochs());
    assertEquals(0, cached.after().get(0).framesFromCache());
  }

  /** A fetch the cache serves whole needs no decoder: opening one reads the file's header. */
  @Test
  void anEpochServedFromTheCacheOpensNoDecoder() throws Exception {
    try (StreamingDataset ds =
        pattern(Datasets.patternV30(), b -> b.returnUint8(true))
            .frameCache(FrameCacheOptions.directory(tmp.resolve("no-decoders"), 64L << 20))
            .build()) {
      epoch(ds);
      var afterFirst = ds.decoderCacheStats();
      assertTrue(afterFirst.misses() > 0, "the first epoch opens decoders: " + afterFirst);
      ds.setEpoch(1);
      epoch(ds);
      var afterSecond = ds.decoderCacheStats();
      assertEquals(
          afterFirst.hits() + afterFirst.misses(),
          afterSecond.hits() + afterSecond.misses(),
          "the second epoch asked the decoder cache for nothing: " + afterSecond);
    }
  }

  /**
   * Frames served from the cache are held where the cache maps them (no copy) until their batch is
   * built; every mapping must be gone once the dataset closes, also after an epoch left early.
   */
  @Test
  void noCacheFileStaysMappedAfterTheDatasetCloses() throws Exception {
    Path dir = tmp.resolve("mapped");
    try (StreamingDataset ds =
        pattern(
                Datasets.patternV30(),
                b ->
                    b.returnUint8(true)
                        .deltaTimestamps(Map.of("observation.images.top", new double[] {0, 0.05})))
            .frameCache(FrameCacheOptions.directory(dir, 64L << 20))
            .build()) {
      epoch(ds);
      ds.setEpoch(1);
      int batches = 0;
      for (Batch b : ds) {
        b.close();
        if (++batches == 3) {
          break; // frames of the cache are held in the shuffle buffer now
        }
      }
      assertTrue(mappingsOf(dir) > 0, "the cache's files are mapped while it streams");
    }
    assertEquals(0, mappingsOf(dir), "a held frame kept its cache file mapped");
  }

  private static long mappingsOf(Path dir) throws Exception {
    String prefix = dir.toRealPath().toString();
    try (var lines = java.nio.file.Files.lines(Path.of("/proc/self/maps"))) {
      return lines.filter(l -> l.contains(prefix)).count();
    }
  }

  @Test
  void windowsAskingAFrameTwiceAreServedTheSame() throws Exception {
    sameEpochsAndLaterOnesFromTheCache(
        Datasets.patternV30(),
        b ->
            b.returnUint8(true)
                .deltaTimestamps(
                    Map.of(
                        "observation.images.top", new double[] {-0.1, 0.0, 0.05},
                        "observation.images.wrist", new double[] {0.0})),
        false);
  }

  @Test
  void imageFeaturesAreCachedToo() throws Exception {
    sameEpochsAndLaterOnesFromTheCache(
        Datasets.imagesV30(CameraFormat.PNG), b -> b.returnUint8(true), true);
  }

  @Test
  void aPrivateMemoryCacheIsRemovedWhenTheDatasetCloses() throws Exception {
    java.util.Set<Path> before = privateFolders(); // other processes may run caches of their own
    Run r =
        run(
            pattern(Datasets.patternV30(), b -> b.returnUint8(true))
                .frameCache(FrameCacheOptions.memory(64L << 20)),
            2);
    assertTrue(r.cache().hits() > 0, r.cache().toString());
    java.util.Set<Path> left = privateFolders();
    left.removeAll(before);
    assertEquals(java.util.Set.of(), left, "the private folder is gone");
  }

  private static java.util.Set<Path> privateFolders() throws Exception {
    try (var shm = java.nio.file.Files.list(Path.of("/dev/shm"))) {
      return shm.filter(p -> p.getFileName().toString().startsWith("robostream-frames-"))
          .collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
    }
  }
}
