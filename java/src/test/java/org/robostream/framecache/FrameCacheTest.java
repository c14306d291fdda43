package org.robostream.framecache;

import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_GRAY8;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.robostream.codec.ColorSpec;
import org.robostream.codec.HeldForm;
import org.robostream.codec.HeldFrame;
import org.robostream.nativecore.NativeAddress;
import org.robostream.testing.HeldFrameBytes;

/**
 * The frame cache's files on their own (no video): what is stored is read back field for field, a
 * slot is never served unless complete and matching its checksum (fields and bytes), a file is
 * served only to its own identity, eviction removes least recently used files of ours (by the last
 * use in their headers) and nothing else.
 */
class FrameCacheTest {
  /** Slot-table offsets of CacheFile's layout (see its javadoc): a slot's state. */
  private static final int SLOT_STATE = 0;

  private static final int HEADER_LAST_USED = 32;

  /** Pictures are 160x160 yuv420p: 38 400 bytes. */
  private static final int SIDE = 160;

  private static final long PICTURE = SIDE * SIDE * 3 / 2;

  /** A file of 10 slots of a picture takes 396 288 bytes: two fit 1 MiB, three do not. */
  private static final int FRAMES = 10;

  @TempDir Path tmp;

  @AfterEach
  void freePictures() {
    reads.close();
  }

  private final NativeBlocks reads = new NativeBlocks();

  private FrameCache cache(long maxBytes) {
    return FrameCache.open(FrameCacheOptions.directory(tmp.resolve("cache"), maxBytes));
  }

  /** A yuv420p picture in native memory, every byte derived from {@code seed}. */
  private HeldFrame picture(int seed, ColorSpec color, double pts, long index) {
    return picture(AV_PIX_FMT_YUV420P, seed, color, pts, index);
  }

  private HeldFrame picture(int format, int seed, ColorSpec color, double pts, long index) {
    return reads.picture(format, 31, seed, color, pts, index);
  }

  private static Path fileOf(FrameCache c, String identity) {
    return c.directory().resolve(FrameCache.fileName(identity));
  }

  private static long slotAt(int position) {
    return CacheFileHeader.BYTES + (long) position * CacheFileHeader.SLOT_ENTRY_BYTES;
  }

  /** Writes {@code value} at {@code at} of {@code file} as another process would. */
  private static void writeLong(Path file, long at, long value) throws Exception {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value), at);
    }
  }

  private static void writeInt(Path file, long at, int value) throws Exception {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value), at);
    }
  }

  /** The cache holds pictures as decoded: a frame converted on a batch device is refused. */
  @Test
  void aConvertedFrameIsNotStored() {
    try (FrameCache c = cache(1L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      HeldFrame packed = picture(1, null, 0.0, 0);
      HeldFrame converted =
          new HeldFrame(
              packed.address(),
              packed.bytes(),
              SIDE,
              SIDE,
              HeldForm.Converted.RGB_UINT8,
              null,
              0.0,
              0);
      IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> e.store(0, converted));
      assertTrue(refused.getMessage().contains("RGB_UINT8"), refused.getMessage());
      assertNull(e.readFrame(0, reads), "nothing was stored");
      e.release();
    }
  }

  @Test
  void whatIsStoredIsReadBackWithEveryField() {
    try (FrameCache c = cache(1L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      HeldFrame colour = picture(1, new ColorSpec(ColorSpec.Matrix.BT709, true), 0.5, 7);
      HeldFrame gray = picture(AV_PIX_FMT_GRAY8, 2, null, 1.25, 9);
      e.store(3, colour);
      e.store(9, gray);
      for (int[] pair : new int[][] {{3, 0}, {9, 1}}) {
        HeldFrame want = pair[1] == 0 ? colour : gray;
        HeldFrame got = e.readFrame(pair[0], reads);
        assertNotNull(got, "slot " + pair[0]);
        assertEquals(want.bytes(), got.bytes());
        assertEquals(want.width(), got.width());
        assertEquals(want.height(), got.height());
        assertEquals(want.pixelFormat(), got.pixelFormat());
        assertEquals(want.color(), got.color());
        assertEquals(want.ptsSeconds(), got.ptsSeconds());
        assertEquals(want.frameIndex(), got.frameIndex());
        assertArrayEquals(
            HeldFrameBytes.of(want), HeldFrameBytes.of(got), "slot " + pair[0] + "'s bytes");
      }
      assertNull(e.readFrame(0, reads), "a slot never stored is a miss");
      e.release();
      FrameCacheStats s = c.stats();
      assertEquals(2, s.stored());
      assertEquals(2, s.hits());
      assertEquals(1, s.misses());
      assertEquals(colour.bytes() + gray.bytes(), s.bytesStored());
      assertEquals(s.bytesStored(), s.bytesServed());
    }
  }

  @Test
  void aStoreThroughStagingWritesThePicturesBytesAndLeavesTheSourceAlone() {
    try (FrameCache c = cache(1L << 20);
        WriteStaging staging = new WriteStaging()) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      HeldFrame small = picture(AV_PIX_FMT_GRAY8, 5, null, 0.25, 2);
      HeldFrame large = picture(7, new ColorSpec(ColorSpec.Matrix.BT709, false), 0.5, 4);
      byte[] largeBefore = HeldFrameBytes.of(large);
      e.store(2, small, staging); // the block is sized for the first picture, then grown
      e.store(4, large, staging);
      e.store(4, picture(8, null, 0.5, 4), staging); // complete already: nothing staged over it
      assertArrayEquals(
          HeldFrameBytes.of(small), HeldFrameBytes.of(e.readFrame(2, reads)), "slot 2's bytes");
      assertArrayEquals(largeBefore, HeldFrameBytes.of(e.readFrame(4, reads)), "slot 4's bytes");
      assertArrayEquals(largeBefore, HeldFrameBytes.of(large), "the source is only read");
      assertEquals(0, c.stats().checksumFailures());

      // Packed straight into the block (CachedFetch's device path): stored from where it is.
      HeldFrame source = picture(9, null, 0.75, 6);
      long block = staging.block(source.bytes());
      NativeAddress.copy(block, source.address(), source.bytes());
      e.store(
          6,
          new HeldFrame(
              block,
              source.bytes(),
              SIDE,
              SIDE,
              new HeldForm.Packed(source.pixelFormat()),
              null,
              0.75,
              6),
          staging);
      assertArrayEquals(
          HeldFrameBytes.of(source), HeldFrameBytes.of(e.readFrame(6, reads)), "slot 6's bytes");
      assertThrows(IllegalArgumentException.class, () -> staging.block(0));
      e.release();
    }
  }

  @Test
  void anotherProcessOpensTheFileByIdentityAndASecondStoreOfACompleteSlotChangesNothing() {
    try (FrameCache writer = cache(1L << 20);
        FrameCache reader = cache(1L << 20)) {
      HeldFrame first = picture(1, null, 0.0, 0);
      FrameCache.Entry w = writer.acquireOrCreate("video-a", FRAMES, PICTURE);
      w.store(0, first);
      w.store(0, picture(99, null, 5.0, 5));
      w.release();
      assertEquals(1, writer.stats().stored(), "the second store is a no-op");
      FrameCache.Entry r = reader.acquire("video-a");
      assertNotNull(r, "a file another cache wrote is found by its identity");
      HeldFrame got = r.readFrame(0, reads);
      assertArrayEquals(HeldFrameBytes.of(first), HeldFrameBytes.of(got));
      assertEquals(0.0, got.ptsSeconds());
      r.release();
      assertNull(reader.acquire("video-b"), "no file for another identity");
    }
  }

  @Test
  void aCorruptByteIsAMissCountedAndTheSlotIsStoredAgain() throws Exception {
    try (FrameCache c = cache(1L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      HeldFrame f = picture(1, null, 0.0, 2);
      e.store(2, f);
      CacheFileHeader h = CacheFileHeader.read(fileOf(c, "video-a"), CacheFolder.currentUid());
      long at = h.dataOffset() + 2 * h.slotBytes() + 1234;
      try (FileChannel ch =
          FileChannel.open(
              fileOf(c, "video-a"), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        ByteBuffer one = ByteBuffer.allocate(1);
        ch.read(one, at);
        one.put(0, (byte) ~one.get(0)).rewind();
        ch.write(one, at);
      }
      assertNull(
          e.readFrame(2, reads), "a slot whose bytes do not match their checksum is never served");
      FrameCacheStats s = c.stats();
      assertEquals(1, s.checksumFailures(), s.toString());
      assertEquals(1, s.misses(), s.toString());
      assertEquals(0, s.hits(), s.toString());
      e.store(2, f);
      assertEquals(2, c.stats().stored(), "the corrupt slot was emptied and filled again");
      assertArrayEquals(HeldFrameBytes.of(f), HeldFrameBytes.of(e.readFrame(2, reads)));
      e.release();
    }
  }

  /**
   * The slot table is as hostile as the bytes, and the checksum covers every field that decides the
   * pixels or where the frame belongs: a slot whose fields describe a larger picture than its
   * bytes, a colour matrix that does not exist, another range, pts or frame index than were stored,
   * is a counted corrupt miss (never a read past the slot, never served), and the slot is stored
   * again.
   */
  @ParameterizedTest(name = "field at +{0} set to {1}")
  @CsvSource({
    "8, 38401", // bytes
    "16, 100000", // width
    "20, 161", // height
    "24, 9999", // pixel format
    "28, 7", // colour matrix: none such
    "28, 0", // another colour matrix
    "32, 1", // full range instead of limited
    "32, 2", // a range that is neither
    "40, 12345", // pts
    "48, 5", // frame index
    "4, 77" // the checksum itself
  })
  void aSlotWhoseFieldsDoNotMatchTheChecksumIsACorruptMiss(int field, int value) throws Exception {
    try (FrameCache c = cache(1L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      HeldFrame f = picture(1, new ColorSpec(ColorSpec.Matrix.BT709, false), 0.5, 1);
      e.store(1, f);
      writeInt(fileOf(c, "video-a"), slotAt(1) + field, value);
      assertNull(e.readFrame(1, reads));
      assertEquals(1, c.stats().checksumFailures(), c.stats().toString());
      assertEquals(0, c.stats().hits(), c.stats().toString());
      e.store(1, f);
      assertEquals(2, c.stats().stored(), "the corrupt slot was emptied and filled again");
      HeldFrame again = e.readFrame(1, reads);
      assertArrayEquals(HeldFrameBytes.of(f), HeldFrameBytes.of(again));
      assertEquals(f.color(), again.color());
      assertEquals(0.5, again.ptsSeconds());
      assertEquals(1, again.frameIndex());
      e.release();
    }
  }

  /**
   * A slot left in a state that is neither empty nor complete (a writer of an older layout died
   * there, or the byte was changed) is never served, and is stored over.
   */
  @Test
  void aSlotInAnyOtherStateIsAMissAndIsStoredOver() throws Exception {
    try (FrameCache c = cache(1L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      writeInt(fileOf(c, "video-a"), slotAt(4) + SLOT_STATE, 0x5eed1234);
      HeldFrame f = picture(4, null, 0.4, 4);
      assertNull(e.readFrame(4, reads), "a slot that is not complete is never served");
      e.store(4, f);
      assertEquals(1, c.stats().stored());
      assertArrayEquals(HeldFrameBytes.of(f), HeldFrameBytes.of(e.readFrame(4, reads)));
      assertEquals(0, c.stats().checksumFailures());
      e.release();
    }
  }

  @Test
  void aStoreFromAnInterruptedThreadIsSkippedAndTheCacheWorksOn() {
    try (FrameCache c = cache(1L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      HeldFrame f = picture(1, null, 0.0, 0);
      Thread.currentThread().interrupt(); // a worker being stopped finishes its decode call
      e.store(0, f);
      assertTrue(Thread.interrupted(), "the interrupt is left for the worker to see");
      assertNull(c.stats().disabled(), "an interrupt is no fault of the folder");
      assertNull(e.readFrame(0, reads));
      e.store(0, f);
      assertArrayEquals(HeldFrameBytes.of(f), HeldFrameBytes.of(e.readFrame(0, reads)));
      assertEquals(1, c.stats().stored());
      e.release();
    }
  }

  /**
   * Interrupts landing while a writer computes a checksum or writes (FileChannel closes itself for
   * every thread when one is interrupted in a write) leave every slot empty or complete, and the
   * file writable.
   */
  @Test
  void interruptsDuringWritesNeverDisableTheCache() throws Exception {
    int frames = 200;
    try (FrameCache c = cache(64L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", frames, PICTURE);
      HeldFrame f = picture(1, null, 0.0, 0);
      java.util.concurrent.atomic.AtomicBoolean done =
          new java.util.concurrent.atomic.AtomicBoolean();
      Thread writer =
          new Thread(
              () -> {
                for (int i = 0; i < frames; i++) {
                  Thread.interrupted(); // the store starts uninterrupted; the interrupt lands in it
                  e.store(i, f);
                }
                done.set(true);
              });
      writer.start();
      while (!done.get()) {
        writer.interrupt();
        java.util.concurrent.locks.LockSupport.parkNanos(5_000);
      }
      writer.join();
      assertNull(c.stats().disabled(), c.stats().toString());
      for (int i = 0; i < frames; i++) {
        e.store(i, f); // fills what the interrupts left empty
        HeldFrame got = e.readFrame(i, reads);
        assertNotNull(got, "slot " + i);
        assertArrayEquals(HeldFrameBytes.of(f), HeldFrameBytes.of(got), "slot " + i);
      }
      // An interrupt that lands once a slot's last write is done reports it not stored, though
      // it is complete: every slot is served, none twice counted.
      assertTrue(c.stats().stored() <= frames, c.stats().toString());
      assertEquals(frames, c.stats().hits(), c.stats().toString());
      assertEquals(0, c.stats().checksumFailures());
      e.release();
    }
  }

  @Test
  void aFileOfAnotherIdentityUnderTheSameNameIsNotServed() throws Exception {
    try (FrameCache c = cache(1L << 20)) {
      // Another identity whose hash gave the same name: the file's header says whose frames it has.
      Files.createDirectories(c.directory());
      CacheFile other =
          CacheFile.create(
              c.directory(),
              FrameCache.fileName("video-a"),
              "video-b",
              FRAMES,
              CacheFile.slotBytesFor(PICTURE),
              1L << 20,
              CacheFolder.currentUid());
      HeldFrame f = picture(1, null, 0.0, 0);
      assertEquals(CacheFile.Stored.STORED, other.store(0, f, null));
      other.close();

      assertNull(c.acquire("video-a"), "video-b's frames are not video-a's");
      assertNull(c.acquireOrCreate("video-a", FRAMES, PICTURE), "nor is its name taken over");
      assertEquals(FRAMES, c.stats().notCacheable());
      assertNull(c.stats().disabled());
      assertTrue(Files.exists(fileOf(c, "video-a")), "the other identity's file stays");
    }
  }

  /**
   * Headers from disk are hostile: one whose slot table would pass 2 GiB, one whose slots would
   * take more than the budget, and a file cut short inside its slot table, are not ours (no
   * exception escapes, nothing is grown).
   */
  @Test
  void aHeaderThatIsTooLargeOrAFileCutShortIsNotServed() throws Exception {
    try (FrameCache c = cache(1L << 20)) {
      Path file = fileOf(c, "video-a");
      int tooMany = CacheFileHeader.MAX_FRAMES + 1;
      long tableEnd = CacheFileHeader.dataOffsetFor(tooMany);
      try (FileChannel ch =
          FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ch.write(new CacheFileHeader(tooMany, 64, tableEnd, 0, "video-a").bytes(), 0);
        ch.write(ByteBuffer.allocate(1), tableEnd - 1); // sparse: as long as its table says
      }
      assertNull(c.acquire("video-a"), "a table of " + tooMany + " slots");
      assertEquals(tableEnd, Files.size(file), "the file is left as it is");
      Files.delete(file);

      // A header within one mapping whose slots (1000 of 1 GiB) would take more than the budget.
      long bigSlots = CacheFileHeader.dataOffsetFor(1000);
      try (FileChannel ch =
          FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ch.write(new CacheFileHeader(1000, 1L << 30, bigSlots, 0, "video-a").bytes(), 0);
        ch.write(ByteBuffer.allocate(1), bigSlots - 1);
      }
      assertNull(c.acquire("video-a"), "slots larger than the budget");
      assertEquals(bigSlots, Files.size(file), "the file not grown");
      Files.delete(file);

      c.acquireOrCreate("video-a", FRAMES, PICTURE).release();
      c.close();
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(CacheFileHeader.BYTES + 100);
      }
      try (FrameCache again = cache(1L << 20)) {
        assertNull(again.acquire("video-a"), "a slot table cut short");
        assertNull(again.stats().disabled());
      }
    }
  }

  @Test
  void evictionRemovesTheLeastRecentlyUsedFileByItsHeaderAndNothingThatIsNotOurs()
      throws Exception {
    try (FrameCache c = cache(1L << 20)) {
      Files.createDirectories(c.directory());
      Path notOurs = c.directory().resolve("0123456789abcdef0123456789abcdef.frames");
      Files.write(notOurs, new byte[CacheFileHeader.BYTES + 100]); // wrong magic
      Path otherName = c.directory().resolve("notes.txt");
      Files.writeString(otherName, "kept");

      c.acquireOrCreate("video-a", FRAMES, PICTURE).release();
      c.acquireOrCreate("video-b", FRAMES, PICTURE).release();
      assertEquals(0, c.stats().evictions());
      // a was created first, but another process used it last: b is the least recently used.
      long now = System.currentTimeMillis();
      writeLong(fileOf(c, "video-a"), HEADER_LAST_USED, now);
      writeLong(fileOf(c, "video-b"), HEADER_LAST_USED, now - 3_600_000);

      FrameCache.Entry third = c.acquireOrCreate("video-c", FRAMES, PICTURE);
      assertNotNull(third);
      third.release();
      FrameCacheStats s = c.stats();
      assertEquals(1, s.evictions(), s.toString());
      assertFalse(Files.exists(fileOf(c, "video-b")), "the least recently used file is evicted");
      assertTrue(Files.exists(fileOf(c, "video-a")));
      assertTrue(Files.exists(fileOf(c, "video-c")));
      assertTrue(Files.exists(notOurs), "a file without our header is never removed");
      assertTrue(Files.exists(otherName));
      assertEquals(2 * CacheFile.fileBytes(FRAMES, CacheFile.slotBytesFor(PICTURE)), s.fileBytes());
      assertTrue(s.fileBytes() <= s.maxBytes(), s.toString());
      assertNull(c.acquire("video-b"), "an evicted file is gone for every process");
    }
  }

  @Test
  void aFileLargerThanTheWholeBudgetIsNotCached() {
    try (FrameCache c = cache(1L << 20)) {
      assertNull(c.acquireOrCreate("video-a", 100, PICTURE));
      FrameCacheStats s = c.stats();
      assertEquals(100, s.notCacheable(), s.toString());
      assertEquals(0, s.fileBytes(), s.toString());
      assertNull(s.disabled(), "not cacheable is no reason to disable the cache");
      assertNotNull(c.acquireOrCreate("video-b", FRAMES, PICTURE), "smaller files still are");
    }
  }

  @Test
  void aPrivateMemoryCachesFolderIsRemovedOnClose() {
    Path dir;
    try (FrameCache c = FrameCache.open(FrameCacheOptions.memory(1L << 20))) {
      dir = c.directory();
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      e.store(0, picture(1, null, 0.0, 0));
      e.release();
      assertTrue(Files.isDirectory(dir));
      assertTrue(Files.exists(fileOf(c, "video-a")));
    }
    assertFalse(Files.exists(dir), "the private folder is removed: " + dir);
  }

  /**
   * Each open file holds a descriptor; a dataset of thousands of files must not keep them all: idle
   * files beyond MAX_IDLE_OPEN are closed, and a file still in use never is.
   */
  @Test
  void idleFilesBeyondTheLimitAreClosedAndAFileInUseIsNot() throws Exception {
    int files = FrameCache.MAX_IDLE_OPEN + 40;
    try (FrameCache c = cache(1L << 30)) {
      FrameCache.Entry held = c.acquireOrCreate("video-held", 1, PICTURE);
      held.store(0, picture(7, null, 0.0, 0));
      for (int i = 0; i < files; i++) {
        c.acquireOrCreate("video-" + i, 1, PICTURE).release();
      }
      long open = descriptorsInto(c.directory());
      assertTrue(
          open <= FrameCache.MAX_IDLE_OPEN + 1, open + " descriptors for " + files + " files");
      assertNotNull(held.readFrame(0, reads), "the file in use stays open and readable");
      held.release();
      FrameCache.Entry again = c.acquire("video-0");
      assertNotNull(again, "a closed file is opened again from the folder");
      again.release();
    }
  }

  /** This process's open descriptors of files in {@code dir}. */
  private static long descriptorsInto(Path dir) throws Exception {
    String prefix = dir.toRealPath().toString();
    long n = 0;
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          if (Files.readSymbolicLink(fd).toString().startsWith(prefix)) {
            n++;
          }
        } catch (java.io.IOException closedMeanwhile) {
          // the listing's own descriptor, or one closed since
        }
      }
    }
    return n;
  }
}
