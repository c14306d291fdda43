package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
   * Nothing of the cache is mapped, ever (a file another process truncates would fault the reader
   * of a mapping: SIGBUS kills the JVM), held frames are copies in the shuffle buffer, and no cache
   * file stays open once the dataset closes.
   */
  @Test
  void noCacheFileIsMappedAndNoneStaysOpenAfterTheDatasetCloses() throws Exception {
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
      assertTrue(ds.frameCacheStats().hits() > 0, ds.frameCacheStats().toString());
      assertEquals(0, mappingsOf(dir), "no cache file is mapped");
    }
    assertEquals(0, descriptorsInto(dir), "a cache file stayed open");
  }

  /**
   * Every cache file is cut in half by "another process" half way through the second epoch: the
   * epoch is still the epoch without a cache, byte for byte (before: SIGBUS, the JVM killed).
   */
  @Test
  void cacheFilesCutShortDuringAnEpochCostMissesNotFrames() throws Exception {
    Path root = Datasets.patternV30();
    UnaryOperator<StreamingDataset.Builder> settings = b -> b.returnUint8(true);
    Run plain = run(pattern(root, settings), 2);
    Path dir = tmp.resolve("cut");
    List<String> second = new ArrayList<>();
    FrameCacheStats stats;
    try (StreamingDataset ds =
        pattern(root, settings).frameCache(FrameCacheOptions.directory(dir, 256L << 20)).build()) {
      epoch(ds);
      ds.setEpoch(1);
      int batches = 0;
      for (Batch b : ds) {
        try (b) {
          second.add(digest(b));
        }
        if (++batches == 2) {
          try (var files = java.nio.file.Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
              try (java.nio.channels.FileChannel ch =
                  java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.WRITE)) {
                ch.truncate(ch.size() / 2);
              }
            }
          }
        }
      }
      stats = ds.frameCacheStats();
    }
    assertEquals(plain.epochs().get(1), second, "the second epoch differs");
    assertTrue(stats.checksumFailures() > 0, "the cut files were noticed: " + stats);
    assertNull(stats.disabled(), stats.toString());
  }

  /**
   * A cache folder others may write, with frames in it: not used, every frame decoded, the epochs
   * those without a cache.
   */
  @Test
  void aFolderOthersMayWriteIsNotUsedAndTheEpochsAreTheEpochsWithout() throws Exception {
    Path root = Datasets.patternV30();
    UnaryOperator<StreamingDataset.Builder> settings = b -> b.returnUint8(true);
    Path dir = tmp.resolve("shared-with-everyone");
    run(pattern(root, settings).frameCache(FrameCacheOptions.directory(dir, 256L << 20)), 1);
    // Everyone may write the folder now: whatever is in it (here a first run's frames, which
    // another user could have rewritten with checksums recomputed) must not be served.
    java.nio.file.Files.setPosixFilePermissions(
        dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    Run plain = run(pattern(root, settings), 1);
    Run cached =
        run(pattern(root, settings).frameCache(FrameCacheOptions.directory(dir, 256L << 20)), 1);
    assertEquals(plain.epochs(), cached.epochs());
    assertEquals(0, cached.cache().hits(), cached.cache().toString());
    assertNotNull(cached.cache().disabled(), cached.cache().toString());
  }

  private static long mappingsOf(Path dir) throws Exception {
    String prefix = dir.toRealPath().toString();
    try (var lines = java.nio.file.Files.lines(Path.of("/proc/self/maps"))) {
      return lines.filter(l -> l.contains(prefix)).count();
    }
  }

  private static long descriptorsInto(Path dir) throws Exception {
    String prefix = dir.toRealPath().toString();
    long n = 0;
    try (var fds = java.nio.file.Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          if (java.nio.file.Files.readSymbolicLink(fd).toString().startsWith(prefix)) {
            n++;
          }
        } catch (java.io.IOException closedMeanwhile) {
          // the listing's own descriptor
        }
      }
    }
    return n;
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
