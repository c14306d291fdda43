package org.robostream.framecache;

import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.bytedeco.javacpp.BytePointer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.codec.ColorSpec;
import org.robostream.codec.HeldForm;
import org.robostream.codec.HeldFrame;
import org.robostream.testing.HeldFrameBytes;

/**
 * The frame cache's fuzz (issue 24): a cache file with ten known frames is mutated — a byte of the
 * header, a field of a slot's entry (every field: state, checksum, bytes, size, format, colour
 * matrix and range, pts, frame index), a byte of a picture, a cut at any length, junk appended, the
 * file replaced by a FIFO, a folder, a link to a valid file elsewhere, an empty file — and a fresh
 * cache reads every slot. Each read must be a miss or exactly the frame stored there (bytes and
 * every field): zero wrong frames, zero exceptions, zero hangs. The counts are printed. A longer
 * campaign, outside the test command: {@code -Drobostream.cachefuzz.trials=N} (default 600) and
 * {@code -Drobostream.cachefuzz.seed=S} (default 2024).
 */
class FrameCacheFuzzTest {
  private static final int SIDE = 160;
  private static final long PICTURE = SIDE * SIDE * 3 / 2;
  private static final int FRAMES = 10;
  private static final int TRIALS = Integer.getInteger("robostream.cachefuzz.trials", 600);
  private static final String ID = "video-fuzz";
  private static final int[] ENTRY_FIELDS = {0, 4, 8, 16, 20, 24, 28, 32, 40, 48};

  @TempDir Path tmp;
  private final List<BytePointer> blocks = new ArrayList<>();

  @AfterEach
  void free() {
    blocks.forEach(BytePointer::close);
  }

  private HeldFrame frame(int i) {
    BytePointer p = new BytePointer(PICTURE);
    blocks.add(p);
    for (long b = 0; b < PICTURE; b++) {
      p.put(b, (byte) (b * 7 + i * 29));
    }
    ColorSpec color = new ColorSpec(ColorSpec.Matrix.BT709, i % 2 == 0);
    return new HeldFrame(
        p.address(),
        PICTURE,
        SIDE,
        SIDE,
        new HeldForm.Packed(AV_PIX_FMT_YUV420P),
        color,
        0.05 * i,
        i);
  }

  @Test
  void everyMutationEndsInTheStoredFrameOrAMiss() throws Exception {
    Path dir = tmp.resolve("cache");
    HeldFrame[] stored = new HeldFrame[FRAMES];
    try (FrameCache c = FrameCache.open(FrameCacheOptions.directory(dir, 4L << 20))) {
      FrameCache.Entry e = c.acquireOrCreate(ID, FRAMES, PICTURE);
      for (int i = 0; i < FRAMES; i++) {
        stored[i] = frame(i);
        e.store(i, stored[i]);
      }
      e.release();
    }
    Path file = dir.resolve(FrameCache.fileName(ID));
    byte[] original = Files.readAllBytes(file);
    Path elsewhere = tmp.resolve("elsewhere.frames");
    Files.write(elsewhere, original); // a valid file a link could point at
    CacheFileHeader h = CacheFileHeader.read(file, CacheFolder.currentUid());
    BytePointer readBlock = new BytePointer(PICTURE);
    blocks.add(readBlock);
    FrameTarget target =
        new FrameTarget() {
          @Override
          public long take(long bytes) {
            return readBlock.address();
          }

          @Override
          public void giveBack(long address, long bytes) {}
        };

    Random random = new Random(Long.getLong("robostream.cachefuzz.seed", 2024L));
    Map<String, int[]> outcomes = new TreeMap<>(); // kind -> {served exact, missed}
    for (int trial = 0; trial < TRIALS; trial++) {
      deleteAny(file);
      Files.write(file, original);
      String kind = mutate(file, original, h, random, elsewhere);
      int[] counts = outcomes.computeIfAbsent(kind, k -> new int[2]);
      int trialNumber = trial;
      assertTimeoutPreemptively(
          Duration.ofSeconds(20),
          () -> {
            try (FrameCache c = FrameCache.open(FrameCacheOptions.directory(dir, 4L << 20))) {
              FrameCache.Entry e = c.acquire(ID);
              for (int i = 0; i < FRAMES; i++) {
                HeldFrame got = e == null ? null : e.readFrame(i, target);
                if (got == null) {
                  counts[1]++;
                  continue;
                }
                String where = "trial " + trialNumber + " (" + kind + "), slot " + i;
                HeldFrame want = stored[i];
                assertArrayEquals(HeldFrameBytes.of(want), HeldFrameBytes.of(got), where);
                assertEquals(want.width(), got.width(), where);
                assertEquals(want.height(), got.height(), where);
                assertEquals(want.pixelFormat(), got.pixelFormat(), where);
                assertEquals(want.color(), got.color(), where);
                assertEquals(want.ptsSeconds(), got.ptsSeconds(), where);
                assertEquals(want.frameIndex(), got.frameIndex(), where);
                counts[0]++;
              }
              if (e != null) {
                e.release();
              }
            }
          });
    }
    StringBuilder report = new StringBuilder("frame cache fuzz, " + TRIALS + " mutations:");
    outcomes.forEach(
        (k, v) ->
            report.append(String.format("%n  %-16s served exact %5d, missed %5d", k, v[0], v[1])));
    System.out.println(report);
    assertTrue(outcomes.size() >= 8, "every kind of mutation ran: " + outcomes.keySet());
    assertTrue(
        outcomes.get("slot-field")[1] > 0 && outcomes.get("picture-byte")[1] > 0,
        "the mutations reached the frames: " + report);
  }

  /** Applies one mutation to {@code file}; returns its kind. */
  private static String mutate(
      Path file, byte[] original, CacheFileHeader h, Random random, Path elsewhere)
      throws Exception {
    int kind = random.nextInt(100);
    if (kind < 15) {
      byte[] b = original.clone();
      int at = random.nextInt(CacheFileHeader.BYTES);
      b[at] ^= (byte) (1 + random.nextInt(255));
      Files.write(file, b);
      return "header-byte";
    }
    if (kind < 50) {
      byte[] b = original.clone();
      int slot = random.nextInt(FRAMES);
      int field = ENTRY_FIELDS[random.nextInt(ENTRY_FIELDS.length)];
      int value = random.nextBoolean() ? random.nextInt() : random.nextInt(4) - 1;
      ByteBuffer.wrap(b)
          .order(ByteOrder.LITTLE_ENDIAN)
          .putInt(CacheFileHeader.BYTES + slot * SlotEntry.BYTES + field, value);
      Files.write(file, b);
      return "slot-field";
    }
    if (kind < 70) {
      byte[] b = original.clone();
      long at = h.dataOffset() + (long) (random.nextDouble() * (b.length - h.dataOffset()));
      b[(int) at] ^= (byte) (1 + random.nextInt(255));
      Files.write(file, b);
      return "picture-byte";
    }
    if (kind < 82) {
      Files.write(file, java.util.Arrays.copyOf(original, random.nextInt(original.length)));
      return "cut";
    }
    if (kind < 86) {
      byte[] junk = new byte[1 + random.nextInt(100_000)];
      random.nextBytes(junk);
      Files.write(file, junk, java.nio.file.StandardOpenOption.APPEND);
      return "junk-appended";
    }
    deleteAny(file);
    switch (kind % 4) {
      case 0 -> {
        Process mk = new ProcessBuilder("mkfifo", file.toString()).start();
        assertEquals(0, mk.waitFor());
        return "fifo";
      }
      case 1 -> {
        Files.createDirectory(file);
        return "folder";
      }
      case 2 -> {
        Files.createSymbolicLink(file, elsewhere);
        return "link";
      }
      default -> {
        Files.createFile(file);
        return "empty-file";
      }
    }
  }

  private static void deleteAny(Path p) throws Exception {
    if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      Files.delete(p);
    } else {
      Files.deleteIfExists(p);
    }
  }
}
