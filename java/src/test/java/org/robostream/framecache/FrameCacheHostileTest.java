package org.robostream.framecache;

import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.codec.HeldFrame;
import org.robostream.testing.HeldFrameBytes;
import org.robostream.testing.StderrLines;

/**
 * The frame cache's folder and files as a hostile user, a crashed job or a stray file leave them
 * (issue 24): a file cut short while in use is a counted corrupt miss, never a signal; a folder
 * another user can write is not used; special files and links named like cache files are never
 * opened, followed, served, written or removed; a file of an older layout is replaced. Each test
 * here fails on the mapped, trust-everything cache it replaced.
 */
class FrameCacheHostileTest {
  private static final int SIDE = 160;
  private static final long PICTURE = SIDE * SIDE * 3 / 2;
  private static final int FRAMES = 10;
  private static final int NOBODY = 65534;

  @TempDir Path tmp;

  @AfterEach
  void free() {
    reads.close();
  }

  private final NativeBlocks reads = new NativeBlocks();

  private HeldFrame picture(int seed, long index) {
    return reads.picture(AV_PIX_FMT_YUV420P, 13, seed, null, 0, index);
  }

  private static FrameCache cacheIn(Path dir, long maxBytes) {
    return FrameCache.open(FrameCacheOptions.directory(dir, maxBytes));
  }

  private static Path fileOf(FrameCache c, String identity) {
    return c.directory().resolve(FrameCache.fileName(identity));
  }

  private static void truncate(Path file, long size) throws Exception {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }

  private static boolean runningAsRoot() {
    return CacheFolder.currentUid() == 0;
  }

  /** Finding 1: a file cut short under a reader (before: SIGBUS in the CRC stub, exit 134). */
  @Test
  void aFileCutShortWhileInUseIsOneCorruptMissAndNeverASignal() throws Exception {
    try (FrameCache c = cacheIn(tmp.resolve("cache"), 1L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      HeldFrame[] stored = new HeldFrame[FRAMES];
      for (int i = 0; i < FRAMES; i++) {
        stored[i] = picture(i, i);
        e.store(i, stored[i]);
      }
      CacheFileHeader h = CacheFileHeader.read(fileOf(c, "video-a"), CacheFolder.currentUid());
      // Cut in the middle of slot 3: slots 0-2 are whole, 3 is short, 4-9 are gone.
      truncate(fileOf(c, "video-a"), h.dataOffset() + 3 * h.slotBytes() + h.slotBytes() / 2);
      for (int i = 0; i < 3; i++) {
        assertArrayEquals(
            HeldFrameBytes.of(stored[i]), HeldFrameBytes.of(e.readFrame(i, reads)), "slot " + i);
      }
      for (int i = 3; i < FRAMES; i++) {
        assertNull(e.readFrame(i, reads), "slot " + i + " of a file cut short");
      }
      e.store(5, stored[5]); // not written into a file cut short
      e.release();
      FrameCacheStats s = c.stats();
      assertEquals(1, s.checksumFailures(), "the cut is counted once: " + s);
      assertEquals(3, s.hits(), s.toString());
      assertNull(s.disabled(), "a cut file is no reason to stop caching: " + s);
      assertNull(c.acquire("video-a"), "the cut file is not used again");
      assertFalse(Files.exists(fileOf(c, "video-a")), "a cut file of ours is removed");
      FrameCache.Entry again = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      assertNotNull(again, "and made anew");
      again.store(4, stored[4]);
      assertArrayEquals(HeldFrameBytes.of(stored[4]), HeldFrameBytes.of(again.readFrame(4, reads)));
      again.release();

      // Cut to nothing: the slot table's read is short too.
      FrameCache.Entry b = c.acquireOrCreate("video-b", FRAMES, PICTURE);
      b.store(0, stored[0]);
      truncate(fileOf(c, "video-b"), 0);
      assertNull(b.readFrame(0, reads));
      b.release();
      assertEquals(2, c.stats().checksumFailures(), c.stats().toString());
    }
  }

  /**
   * The fuzz for finding 1: another thread truncates, regrows and rewrites the file while readers
   * read every slot thousands of times. Every frame served is exactly the frame stored; nothing
   * faults.
   */
  @Test
  void readersRacingTruncationsServeOnlyTheStoredBytes() throws Exception {
    try (FrameCache c = cacheIn(tmp.resolve("cache"), 1L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      byte[][] want = new byte[FRAMES][];
      for (int i = 0; i < FRAMES; i++) {
        HeldFrame f = picture(i, i);
        want[i] = HeldFrameBytes.of(f);
        e.store(i, f);
      }
      Path file = fileOf(c, "video-a");
      long full = Files.size(file);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong served = new AtomicLong();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> readers = new ArrayList<>();
      java.util.concurrent.CountDownLatch servedOnce = new java.util.concurrent.CountDownLatch(2);
      for (int r = 0; r < 2; r++) {
        long block = reads.take(PICTURE);
        FrameTarget own = // one block a reader, read into again and again
            new FrameTarget() {
              @Override
              public long take(long bytes) {
                return block;
              }

              @Override
              public void giveBack(long address, long bytes) {}
            };
        Thread t =
            new Thread(
                () -> {
                  try {
                    while (!stop.get()) {
                      for (int i = 0; i < FRAMES; i++) {
                        HeldFrame got = e.readFrame(i, own);
                        if (got != null) {
                          served.incrementAndGet();
                          if (!java.util.Arrays.equals(want[i], HeldFrameBytes.of(got))) {
                            throw new AssertionError("slot " + i + " served other bytes");
                          }
                        }
                      }
                      servedOnce.countDown();
                    }
                  } catch (Throwable ex) {
                    failure.compareAndSet(null, ex);
                    servedOnce.countDown();
                  }
                });
        readers.add(t);
        t.start();
      }
      servedOnce.await();
      java.util.Random random = new java.util.Random(24);
      for (int round = 0; round < 300; round++) {
        truncate(file, random.nextLong(full));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
          ch.write(ByteBuffer.allocate(1), full - 1); // grown back: zeros where it was cut
        }
      }
      stop.set(true);
      for (Thread t : readers) {
        t.join();
      }
      e.release();
      assertNull(failure.get(), String.valueOf(failure.get()));
      assertTrue(served.get() > 0, "some reads were served before the first cut");
    }
  }

  /**
   * Finding 2: a folder group or others may write (another user made it, mode 0777) is not used: a
   * forged slot with a recomputed checksum there is never served.
   */
  @Test
  void aFolderOthersMayWriteIsNotUsedAndItsForgedFramesAreNeverServed() throws Exception {
    Path dir = tmp.resolve("world-writable");
    try (FrameCache writer = cacheIn(dir, 1L << 20)) { // "another user" filling it with frames
      FrameCache.Entry e = writer.acquireOrCreate("video-a", FRAMES, PICTURE);
      e.store(5, picture(99, 5)); // a valid slot, checksum and all: the forger's pixels
      e.release();
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    try (FrameCache c = cacheIn(dir, 1L << 20)) {
      FrameCacheStats s = c.stats();
      assertNotNull(s.disabled(), "a folder others may write is not used");
      assertTrue(s.disabled().contains("group or others may write it (mode 777)"), s.disabled());
      assertNull(c.acquire("video-a"), "nothing of it is served");
      assertNull(c.acquireOrCreate("video-b", FRAMES, PICTURE), "nothing is written there");
      assertFalse(Files.exists(fileOf(c, "video-b")));
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    try (FrameCache c = cacheIn(dir, 1L << 20)) {
      assertNull(c.stats().disabled(), "only its owner may write it: used");
    }
  }

  /** A folder another user owns, or under a folder others may rename things in, is not used. */
  @Test
  void aFolderOfAnotherUserOrUnderAnUnprotectedFolderIsNotUsed() throws Exception {
    Path open = tmp.resolve("open");
    Files.createDirectories(open);
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    try (FrameCache c = cacheIn(open.resolve("cache"), 1L << 20)) {
      String why = c.stats().disabled();
      assertNotNull(why, "others may rename the cache folder away and put theirs in its place");
      assertTrue(why.contains("no sticky bit"), why);
    }
    Files.setAttribute(open, "unix:mode", 01777);
    try (FrameCache c = cacheIn(open.resolve("cache"), 1L << 20)) {
      assertNull(c.stats().disabled(), "a sticky folder above (like /tmp, /dev/shm) is fine");
    }
    assumeTrue(runningAsRoot(), "giving a folder to another user needs root");
    Path theirs = tmp.resolve("theirs");
    Files.createDirectories(theirs);
    Files.setAttribute(theirs, "unix:uid", NOBODY);
    try (FrameCache c = cacheIn(theirs, 1L << 20)) {
      String why = c.stats().disabled();
      assertNotNull(why);
      assertTrue(why.contains("belongs to user " + NOBODY), why);
    }
  }

  /**
   * The per-user default folder taken by "another user" first (a folder others may write, a file, a
   * link to elsewhere): this user's processes move to a folder named by their key, which nobody
   * else can guess, and still share it; without a key, a private folder of the process. Never an
   * exception, never the cache turned off.
   */
  @Test
  void theDefaultFolderTakenByAnotherUserMovesToAFolderNamedByTheUsersKey() throws Exception {
    String parentBefore = System.getProperty(FrameCacheOptions.SHARED_PARENT_PROPERTY);
    Path shm = Files.createDirectories(tmp.resolve("shm"));
    System.setProperty(FrameCacheOptions.SHARED_PARENT_PROPERTY, shm.toString());
    Path home = Files.createDirectories(tmp.resolve("home"));
    try {
      FrameCacheOptions shared = FrameCacheOptions.parse("shared:16M");
      Path mine = shm.resolve("robostream-frames-" + CacheFolder.currentUid());
      assertEquals(mine, shared.directory());
      try (FrameCache c = FrameCache.open(shared, home)) {
        assertEquals(mine.toRealPath(), c.directory(), "made for this user");
        assertEquals(
            "rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(mine)));
      }
      Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwxrwxrwx"));
      Path keyed;
      try (FrameCache c = FrameCache.open(shared, home)) {
        keyed = c.directory();
        assertNull(c.stats().disabled(), "the cache still works");
        assertTrue(
            keyed.getFileName().toString().matches("robostream-frames-\\d+-[0-9a-f]{16}"),
            keyed.toString());
        assertEquals(
            "rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keyed)));
        FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
        e.store(0, picture(1, 0));
        e.release();
      }
      Path key = tmp.resolve("home").resolve(UserKey.FILE);
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
      try (FrameCache c = FrameCache.open(shared, home)) {
        assertEquals(keyed, c.directory(), "every process of the user finds the same folder");
        FrameCache.Entry e = c.acquire("video-a");
        assertNotNull(e, "and the frames another process stored there");
        assertNotNull(e.readFrame(0, reads));
        e.release();
      }
      // A regular file or a link where the folder should be: the keyed folder, no exception.
      Files.delete(mine);
      Files.writeString(mine, "not a folder");
      try (FrameCache c = FrameCache.open(shared, home)) {
        assertEquals(keyed, c.directory());
      }
      Files.delete(mine);
      Files.createSymbolicLink(mine, tmp.resolve("elsewhere-they-chose"));
      try (FrameCache c = FrameCache.open(shared, home)) {
        assertEquals(keyed, c.directory(), "a link to nothing is not followed");
      }
      // The keyed folder taken too once its name was seen (a reboot emptied /dev/shm, another user
      // made it first): the next name of the key, which nobody has seen; still shared, and the
      // warning names what was taken and by whom.
      Files.setPosixFilePermissions(keyed, PosixFilePermissions.fromString("rwxrwxrwx"));
      Path next;
      try (StderrLines log = new StderrLines();
          FrameCache c = FrameCache.open(shared, home)) {
        next = c.directory();
        assertNull(c.stats().disabled(), "sharing stays on");
        assertNotEquals(keyed, next);
        assertTrue(
            next.getFileName().toString().matches("robostream-frames-\\d+-[0-9a-f]{16}"),
            next.toString());
        List<String> warned = log.containing("caching in " + next);
        assertEquals(1, warned.size(), warned.toString());
        assertTrue(warned.get(0).contains("after " + keyed + ": "), warned.get(0));
        assertTrue(warned.get(0).contains("others may write it"), warned.get(0));
      }
      try (FrameCache c = FrameCache.open(shared, home)) {
        assertEquals(next, c.directory(), "the user's other processes find the same one");
      }
      // Every name of the key taken: private, saying so (not "no key").
      for (String name : UserKey.names(home, CacheFolder.currentUid())) {
        Path squatted = shm.resolve(mine.getFileName() + "-" + name);
        Files.createDirectories(squatted);
        Files.setPosixFilePermissions(squatted, PosixFilePermissions.fromString("rwxrwxrwx"));
      }
      try (StderrLines log = new StderrLines();
          FrameCache c = FrameCache.open(shared, home)) {
        assertNull(c.stats().disabled());
        List<String> warned = log.containing("private to this process");
        assertEquals(1, warned.size(), warned.toString());
        assertTrue(
            warned.get(0).contains("all 16 folders named by your key are taken"), warned.get(0));
      }
      // No home folder to keep a key in: a private folder of the process, removed with it.
      Path noHome = key; // a file: no key can be kept under it
      Path fallback;
      try (FrameCache c = FrameCache.open(shared, noHome)) {
        fallback = c.directory();
        assertNull(c.stats().disabled());
        assertNotEquals(keyed, fallback);
        assertEquals(
            "rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(fallback)));
      }
      assertFalse(Files.exists(fallback), "the private folder goes with the process's cache");
    } finally {
      restore(FrameCacheOptions.SHARED_PARENT_PROPERTY, parentBefore);
    }
  }

  private static void restore(String property, String value) {
    if (value == null) {
      System.clearProperty(property);
    } else {
      System.setProperty(property, value);
    }
  }

  /**
   * An interrupted reader (a worker being stopped) reads nothing rather than closing the file's
   * channel under every other reader; the cache works on.
   */
  @Test
  void anInterruptedReaderReadsNothingAndLeavesTheFileOpenForTheOthers() {
    try (FrameCache c = cacheIn(tmp.resolve("cache"), 1L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      HeldFrame f = picture(3, 3);
      e.store(3, f);
      Thread.currentThread().interrupt();
      assertNull(e.readFrame(3, reads), "nothing read by a thread being stopped");
      assertTrue(Thread.interrupted(), "the interrupt is left for the worker to see");
      assertArrayEquals(
          HeldFrameBytes.of(f),
          HeldFrameBytes.of(e.readFrame(3, reads)),
          "the channel is still open");
      assertNull(c.stats().disabled());
      e.release();
    }
  }

  /**
   * Finding 3: FIFOs named like cache files (before: eviction blocked in open while holding the
   * cache lock, and every worker with it) are never opened, counted or removed.
   */
  @Test
  void aFifoNamedLikeACacheFileNeverHangsEvictionOrALookup() throws Exception {
    Path dir = tmp.resolve("cache");
    Files.createDirectories(dir);
    Path fifo = dir.resolve("0123456789abcdef0123456789abcdef.frames");
    Path fifoOfA = dir.resolve(FrameCache.fileName("video-a"));
    for (Path p : List.of(fifo, fifoOfA)) {
      Process mk = new ProcessBuilder("mkfifo", p.toString()).start();
      assertEquals(0, mk.waitFor());
    }
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          try (FrameCache c = cacheIn(dir, 1L << 20)) {
            assertNull(c.acquire("video-a"), "a FIFO is not a cache file");
            assertNull(c.acquireOrCreate("video-a", FRAMES, PICTURE));
            // Two files fill the budget; the third makes eviction look at every name.
            for (String id : List.of("video-b", "video-c", "video-d")) {
              FrameCache.Entry e = c.acquireOrCreate(id, FRAMES, PICTURE);
              assertNotNull(e, id);
              e.release();
            }
            FrameCacheStats s = c.stats();
            assertEquals(1, s.evictions(), s.toString());
            assertNull(s.disabled(), s.toString());
            assertEquals(FRAMES, s.notCacheable(), "video-a's name holds a FIFO: " + s);
          }
        });
    assertTrue(Files.exists(fifo, LinkOption.NOFOLLOW_LINKS), "never removed");
    assertTrue(Files.exists(fifoOfA, LinkOption.NOFOLLOW_LINKS), "never removed");
  }

  /**
   * Finding 5: a link named like a cache file, to a cache file outside the folder, is neither
   * served nor written (before: served, and its last use written); a folder named like one does not
   * turn the cache off (before: it did).
   */
  @Test
  void linksAndFoldersNamedLikeCacheFilesAreNeverFollowedNorTurnTheCacheOff() throws Exception {
    Path outside = tmp.resolve("outside");
    HeldFrame planted = picture(42, 0);
    try (FrameCache elsewhere = cacheIn(outside, 1L << 20)) {
      FrameCache.Entry e = elsewhere.acquireOrCreate("video-a", FRAMES, PICTURE);
      e.store(0, planted);
      e.release();
    }
    Path target = outside.resolve(FrameCache.fileName("video-a"));
    byte[] targetBefore = Files.readAllBytes(target);
    Path dir = tmp.resolve("cache");
    Files.createDirectories(dir);
    Files.createSymbolicLink(dir.resolve(FrameCache.fileName("video-a")), target);
    Files.createDirectories(dir.resolve(FrameCache.fileName("video-b")));
    try (FrameCache c = cacheIn(dir, 4L << 20)) {
      assertNull(c.acquire("video-a"), "a link is never followed");
      assertNull(c.acquireOrCreate("video-a", FRAMES, PICTURE));
      assertNull(c.acquire("video-b"), "a folder is not a cache file");
      assertNull(c.acquireOrCreate("video-b", FRAMES, PICTURE));
      FrameCache.Entry other = c.acquireOrCreate("video-c", FRAMES, PICTURE);
      assertNotNull(other, "the cache works on for every other video");
      other.store(1, picture(3, 1));
      assertNotNull(other.readFrame(1, reads));
      other.release();
      FrameCacheStats s = c.stats();
      assertNull(s.disabled(), s.toString());
      assertEquals(0, s.hits() - 1, "only video-c's frame was served: " + s);
    }
    assertArrayEquals(targetBefore, Files.readAllBytes(target), "the link's target is untouched");
    assertTrue(Files.isSymbolicLink(dir.resolve(FrameCache.fileName("video-a"))));
  }

  /** A file of another user in the folder (root only can make one) is never opened or removed. */
  @Test
  void anotherUsersFileInTheFolderIsNeverOpenedNorRemoved() throws Exception {
    assumeTrue(runningAsRoot(), "giving a file to another user needs root");
    Path dir = tmp.resolve("cache");
    try (FrameCache c = cacheIn(dir, 1L << 20)) {
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      e.store(0, picture(1, 0));
      e.release();
    }
    Path theirs = dir.resolve(FrameCache.fileName("video-a"));
    Files.setAttribute(theirs, "unix:uid", NOBODY);
    try (FrameCache c = cacheIn(dir, 1L << 20)) {
      assertNull(c.acquire("video-a"), "another user's file is not ours to read");
      for (String id : List.of("video-b", "video-c", "video-d")) {
        FrameCache.Entry e = c.acquireOrCreate(id, FRAMES, PICTURE);
        assertNotNull(e, id);
        e.release();
      }
      assertTrue(Files.exists(theirs), "nor ours to remove");
    }
  }

  /** A file of ours from an older robostream (layout 1) is replaced, not refused for good. */
  @Test
  void aFileOfAnOlderLayoutIsReplaced() throws Exception {
    Path dir = tmp.resolve("cache");
    try (FrameCache c = cacheIn(dir, 1L << 20)) {
      c.acquireOrCreate("video-a", FRAMES, PICTURE).release();
    }
    Path file = dir.resolve(FrameCache.fileName("video-a"));
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 1), 8);
    }
    try (FrameCache c = cacheIn(dir, 1L << 20)) {
      assertNull(c.acquire("video-a"), "layout 1 is not read");
      FrameCache.Entry e = c.acquireOrCreate("video-a", FRAMES, PICTURE);
      assertNotNull(e, "replaced by a file of this layout");
      e.store(2, picture(2, 2));
      assertNotNull(e.readFrame(2, reads));
      e.release();
      assertEquals(0, c.stats().notCacheable(), c.stats().toString());
    }
  }
}
