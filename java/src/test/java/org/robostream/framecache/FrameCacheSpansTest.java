package org.robostream.framecache;

import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.codec.HeldFrame;
import org.robostream.testing.HeldFrameBytes;
import org.robostream.testing.StderrLines;

/**
 * Cache files for some spans of a video ({@link FrameCache#expect}): they reserve those frames
 * only, serve and store only them, grow to the union when another process reads other spans, and a
 * span table from disk is checked. A cache too small for what it must reserve counts it and says so
 * once.
 */
class FrameCacheSpansTest {
  private static final String TOO_SMALL = "too small for the frames this loader reads";

  /** Pictures are 160x160 yuv420p: 38 400 bytes. */
  private static final int SIDE = 160;

  private static final long PICTURE = SIDE * SIDE * 3 / 2;

  /** A video of 100 frames: its whole file (3.9 MB) is larger than the 1 MiB caches here. */
  private static final int VIDEO_FRAMES = 100;

  @TempDir Path tmp;
  private final NativeBlocks reads = new NativeBlocks();

  @AfterEach
  void freePictures() {
    reads.close();
  }

  private FrameCache cache() {
    return FrameCache.open(FrameCacheOptions.directory(tmp.resolve("cache"), 1L << 20));
  }

  private HeldFrame picture(int seed, long index) {
    return reads.picture(AV_PIX_FMT_YUV420P, 13, seed, null, 0, index);
  }

  private static FrameSpans spans(int... firstCount) {
    FrameSpans.Builder b = FrameSpans.builder();
    for (int i = 0; i < firstCount.length; i += 2) {
      b.add(firstCount[i], firstCount[i + 1]);
    }
    return b.build();
  }

  /** Header, slot table and span table, 4 KiB aligned, then a 38 400-byte slot per frame. */
  private static long fileBytes(int slots, int spans) {
    long tables = 8192 + slots * 64L + spans * 8L;
    return ((tables + 4095) & ~4095L) + slots * PICTURE;
  }

  private static Path fileOf(FrameCache c, String identity) {
    return c.directory().resolve(FrameCache.fileName(identity));
  }

  @Test
  void aFileForSomeSpansReservesThemAndServesAndStoresOnlyThem() throws Exception {
    try (FrameCache c = cache()) {
      c.expect("video-a", spans(10, 5, 50, 5));
      FrameCache.Entry e = c.acquireOrCreate("video-a", VIDEO_FRAMES, PICTURE);
      assertNotNull(e, "10 frames fit where the whole video's 100 do not");
      assertEquals(VIDEO_FRAMES, e.frames(), "positions are the video's");
      assertEquals(spans(10, 5, 50, 5), e.positions());
      assertEquals(fileBytes(10, 2), Files.size(fileOf(c, "video-a")));
      HeldFrame ten = picture(1, 10);
      HeldFrame fiftyFour = picture(2, 54);
      e.store(10, ten);
      e.store(54, fiftyFour);
      e.store(20, picture(3, 20)); // no slot: not stored
      assertArrayEquals(HeldFrameBytes.of(ten), HeldFrameBytes.of(e.readFrame(10, reads)));
      assertArrayEquals(HeldFrameBytes.of(fiftyFour), HeldFrameBytes.of(e.readFrame(54, reads)));
      assertNull(e.readFrame(20, reads), "a position without a slot is a miss");
      assertNull(e.readFrame(11, reads), "a slot never stored is a miss");
      e.release();
      FrameCacheStats s = c.stats();
      assertEquals(2, s.stored(), s.toString());
      assertEquals(1, s.notCacheable(), "the store without a slot: " + s);
      assertEquals(fileBytes(10, 2), s.neededBytes(), s.toString());
      assertEquals(0, s.refusedReservations(), s.toString());
      assertFalse(s.tooSmall(), s.toString());
    }
  }

  @Test
  void aProcessReadingOtherSpansReplacesTheFileWithOneForBoth() throws Exception {
    try (FrameCache first = cache()) {
      first.expect("video-a", spans(10, 5));
      FrameCache.Entry e = first.acquireOrCreate("video-a", VIDEO_FRAMES, PICTURE);
      e.store(10, picture(1, 10));
      e.release();
    }
    HeldFrame fifty = picture(2, 50);
    try (FrameCache second = cache()) {
      second.expect("video-a", spans(50, 5));
      assertNull(second.acquire("video-a"), "the file there has no slot for 50..54");
      FrameCache.Entry e = second.acquireOrCreate("video-a", VIDEO_FRAMES, PICTURE);
      assertEquals(spans(10, 5, 50, 5), e.positions(), "one file for both");
      assertNull(e.readFrame(10, reads), "the replaced file's frames are decoded again once");
      e.store(50, fifty);
      e.release();
      assertEquals(fileBytes(10, 2), Files.size(fileOf(second, "video-a")));
    }
    try (FrameCache again = cache()) {
      again.expect("video-a", spans(10, 5));
      FrameCache.Entry e = again.acquire("video-a");
      assertNotNull(e, "the union covers 10..14: used as it is");
      assertArrayEquals(HeldFrameBytes.of(fifty), HeldFrameBytes.of(e.readFrame(50, reads)));
      e.release();
    }
  }

  @Test
  void aSpanTableThatDoesNotMatchItsChecksumIsNotOurs() throws Exception {
    Path file;
    try (FrameCache c = cache()) {
      c.expect("video-a", spans(10, 5, 50, 5));
      FrameCache.Entry e = c.acquireOrCreate("video-a", VIDEO_FRAMES, PICTURE);
      e.store(50, picture(1, 50));
      e.release();
      file = fileOf(c, "video-a");
    }
    long table = 8192 + 10 * 64L; // after the slot table: first, count of each span
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 45), table + 8);
    }
    try (FrameCache c = cache()) {
      c.expect("video-a", spans(10, 5, 50, 5));
      assertNull(c.acquire("video-a"), "spans 45.. would map 50 to another slot");
      assertNull(c.acquireOrCreate("video-a", VIDEO_FRAMES, PICTURE), "not ours: not replaced");
      assertTrue(Files.exists(file), "a file that is not ours is left alone");
      assertNull(c.stats().disabled());
    }
  }

  @Test
  void aReservationLargerThanTheWholeCacheIsCountedAndSaidOnce() {
    try (StderrLines log = new StderrLines();
        FrameCache c = cache()) {
      assertNull(c.acquireOrCreate("video-a", VIDEO_FRAMES, PICTURE));
      assertNull(c.acquireOrCreate("video-a", VIDEO_FRAMES, PICTURE), "not tried again");
      c.expect("video-b", spans(0, 90));
      assertNull(c.acquireOrCreate("video-b", VIDEO_FRAMES, PICTURE), "90 frames do not fit");
      FrameCacheStats s = c.stats();
      assertEquals(2, s.refusedReservations(), s.toString());
      assertEquals(VIDEO_FRAMES + 90, s.notCacheable(), s.toString());
      assertEquals(fileBytes(VIDEO_FRAMES, 0) + fileBytes(90, 1), s.neededBytes(), s.toString());
      assertTrue(s.tooSmall());
      String warning = onlyTooSmallWarning(log);
      assertTrue(
          warning.contains(
              "the 100 frames it reads of video-a need "
                  + org.robostream.ByteSize.describe(fileBytes(VIDEO_FRAMES, 0))
                  + " on their own, more than the whole cache. The cache holds 1 MiB"
                  + " (1048576 bytes)"),
          warning);
      assertTrue(
          warning.contains(
              "Raise it with --frame-cache "
                  + tmp.resolve("cache")
                  + ":SIZE (library: FrameCacheOptions.directory(folder, bytes))"),
          warning);
    }
  }

  @Test
  void evictingAFileItReadsForAnotherItReadsIsCountedAndSaidOnceAndAnotherProcesssIsNot()
      throws Exception {
    try (StderrLines log = new StderrLines();
        FrameCache other = cache();
        FrameCache c = cache()) {
      // Files of 10 slots: 396 288 bytes; two fit the 1 MiB budget, three do not.
      other.acquireOrCreate("video-x", 10, PICTURE).release();
      setLastUse(fileOf(c, "video-x"), 1_000);
      c.acquireOrCreate("video-a", 10, PICTURE).release();
      setLastUse(fileOf(c, "video-a"), 2_000);
      c.acquireOrCreate("video-b", 10, PICTURE).release(); // evicts the other process's x
      setLastUse(fileOf(c, "video-b"), 3_000);
      assertEquals(1, c.stats().evictions());
      assertEquals(0, c.stats().ownEvictions(), "another process's file: LRU as ever");
      assertEquals(List.of(), log.containing(TOO_SMALL));
      c.acquireOrCreate("video-c", 10, PICTURE).release(); // evicts a, which this one reads
      setLastUse(fileOf(c, "video-c"), 4_000);
      c.acquireOrCreate("video-d", 10, PICTURE).release(); // evicts b
      FrameCacheStats s = c.stats();
      assertEquals(2, s.ownEvictions(), s.toString());
      assertEquals(4 * fileBytes(10, 0), s.neededBytes(), s.toString());
      String warning = onlyTooSmallWarning(log);
      assertTrue(
          warning.contains(
              "it evicted the frames of video-a, which it reads every epoch, to make room for"
                  + " those of video-c. The cache holds 1 MiB (1048576 bytes); the files this"
                  + " loader reserved so far need 1.13 MiB (1188864 bytes) together"),
          warning);
    }
  }

  private static void setLastUse(Path file, long millis) throws Exception {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, millis), 32);
    }
  }

  /** The one "too small" warning the cache wrote: exactly one, or the test fails. */
  private static String onlyTooSmallWarning(StderrLines log) {
    List<String> warnings = log.containing(TOO_SMALL);
    assertEquals(1, warnings.size(), warnings.toString());
    return warnings.get(0);
  }
}
