package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.framecache.FrameCacheStats;
import org.robostream.testing.Datasets;
import org.robostream.testing.Processes;
import org.robostream.testing.StderrLines;

/**
 * A cache that stops working never fails an epoch: a folder removed between epochs or from another
 * thread mid-epoch, and a disk that fills up, leave every epoch identical to one without a cache,
 * with exactly one warning and {@link StreamingDataset#frameCacheStats()}{@code .disabled()} saying
 * why; frames are decoded from then on.
 */
class FrameCacheDegradeTest {
  /** What slf4j-simple prints for a warning of the frame cache. */
  private static final String CACHE_WARNING = "WARN org.robostream.framecache.FrameCache";

  /** Longer than the cache's recheck of an open file (FrameCache.RECHECK_MILLIS, 1 s). */
  private static final long PAST_RECHECK_MILLIS = 1200;

  @TempDir Path tmp;

  private static StreamingDataset.Builder builder() {
    return StreamingDataset.builder(Datasets.patternV30())
        .environment(Map.of())
        .workers(2)
        .batchSize(8)
        .bufferSize(40)
        .seed(7)
        .returnUint8(true);
  }

  private static List<List<String>> withoutCache() throws Exception {
    List<List<String>> epochs = new ArrayList<>();
    try (StreamingDataset ds = builder().build()) {
      for (int e = 0; e < 3; e++) {
        ds.setEpoch(e);
        epochs.add(FrameCacheStreamingTest.epoch(ds));
      }
    }
    return epochs;
  }

  /** Removes {@code dir} and everything in it, retrying while workers add files to it. */
  private static void removeFolder(Path dir) throws IOException {
    for (int attempt = 0; Files.exists(dir); attempt++) {
      try (Stream<Path> all = Files.walk(dir)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      } catch (NoSuchFileException | java.nio.file.DirectoryNotEmptyException raced) {
        if (attempt > 100) {
          throw raced;
        }
      }
    }
  }

  private static void assertDegradedOnce(
      StderrLines log, StreamingDataset ds, String why, long decodedBefore) {
    FrameCacheStats s = ds.frameCacheStats();
    assertNotNull(s.disabled(), "the cache says it stopped: " + s);
    assertTrue(s.disabled().contains(why), "disabled says why (" + why + "): " + s.disabled());
    List<String> warnings = log.containing(CACHE_WARNING);
    assertEquals(1, warnings.size(), "exactly one warning: " + warnings);
    assertTrue(
        ds.stats().framesDecoded() > decodedBefore,
        "frames are decoded once the cache stopped: " + ds.stats());
  }

  /**
   * The cache folder is removed after epoch 0, or during it by another thread while the workers
   * fill the cache: epochs 1 and 2 (run once the cache had time to notice that its open files left
   * the folder) equal the run without a cache all the same.
   */
  @ParameterizedTest(name = "removed mid-epoch {0}")
  @ValueSource(booleans = {false, true})
  void aRemovedFolderDegradesToDecodingWithOneWarning(boolean midEpoch) throws Exception {
    List<List<String>> plain = withoutCache();
    Path dir = tmp.resolve("cache");
    try (StderrLines log = new StderrLines();
        StreamingDataset ds =
            builder().frameCache(FrameCacheOptions.directory(dir, 256L << 20)).build()) {
      ds.setEpoch(0);
      List<String> first = new ArrayList<>();
      Iterator<Batch> it = ds.iterator();
      Thread remover = new Thread(() -> removeQuietly(dir), "cache-remover");
      while (it.hasNext()) {
        try (Batch b = it.next()) {
          first.add(FrameCacheStreamingTest.digest(b));
        }
        if (midEpoch && remover.getState() == Thread.State.NEW) {
          remover.start();
        }
      }
      if (!midEpoch) {
        remover.start();
      }
      remover.join();
      assertEquals(plain.get(0), first, "epoch 0");
      long decoded = ds.stats().framesDecoded();
      Thread.sleep(PAST_RECHECK_MILLIS);
      for (int e = 1; e < 3; e++) {
        ds.setEpoch(e);
        assertEquals(plain.get(e), FrameCacheStreamingTest.epoch(ds), "epoch " + e);
      }
      assertDegradedOnce(log, ds, dir.toString(), decoded);
    }
  }

  /**
   * A consumer that leaves 30 epochs after one to four batches has its workers stopped mid-decode
   * (interrupted while they store frames; before the fix one such interrupt closed the file's
   * channel and disabled the cache): the cache keeps working, warns nothing, and fills up.
   */
  @Test
  void epochsLeftEarlyNeverDisableTheCache() throws Exception {
    List<List<String>> plain = withoutCache();
    try (StderrLines log = new StderrLines();
        StreamingDataset ds =
            builder()
                .frameCache(FrameCacheOptions.directory(tmp.resolve("cache"), 256L << 20))
                .build()) {
      for (int e = 0; e < 30; e++) {
        ds.setEpoch(e);
        Iterator<Batch> it = ds.iterator();
        for (int k = 0; k <= e % 4; k++) {
          it.next().close();
        }
      }
      for (int e = 0; e < 3; e++) {
        ds.setEpoch(e);
        assertEquals(plain.get(e), FrameCacheStreamingTest.epoch(ds), "epoch " + e);
      }
      long decoded = ds.stats().framesDecoded();
      ds.setEpoch(0);
      assertEquals(plain.get(0), FrameCacheStreamingTest.epoch(ds), "epoch 0 again");
      assertNull(ds.frameCacheStats().disabled(), ds.frameCacheStats().toString());
      assertEquals(List.of(), log.containing(CACHE_WARNING));
      assertEquals(decoded, ds.stats().framesDecoded(), "every frame is in the cache");
    }
  }

  private static void removeQuietly(Path dir) {
    try {
      removeFolder(dir);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * A cache folder on a 1 MiB tmpfs, too small for the dataset's frames (about 2.6 MB): the write
   * that finds the disk full disables the cache; nothing is ever written or read through a mapped
   * page the disk could not back, so the JVM gets an IOException, never a SIGBUS.
   */
  @Test
  void aFullDiskDegradesToDecodingWithOneWarning() throws Exception {
    List<List<String>> plain = withoutCache();
    Path disk = tmp.resolve("small-disk");
    Files.createDirectories(disk);
    Processes.Result mount =
        Processes.run(
            Map.of(), 30, "mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk.toString());
    Assumptions.assumeTrue(
        mount.rc() == 0,
        "a full disk needs a small tmpfs, and mounting one is not permitted here: "
            + mount.output());
    try (StderrLines log = new StderrLines();
        StreamingDataset ds =
            builder()
                .frameCache(FrameCacheOptions.directory(disk.resolve("cache"), 256L << 20))
                .build()) {
      for (int e = 0; e < 3; e++) {
        ds.setEpoch(e);
        assertEquals(plain.get(e), FrameCacheStreamingTest.epoch(ds), "epoch " + e);
      }
      assertDegradedOnce(log, ds, "No space left on device", 0);
    } finally {
      Processes.Result umount = Processes.run(Map.of(), 30, "umount", disk.toString());
      assertEquals(0, umount.rc(), "umount " + disk + ": " + umount.output());
    }
  }
}
