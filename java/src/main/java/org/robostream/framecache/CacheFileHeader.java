package org.robostream.framecache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The first {@link #BYTES} of a {@link CacheFile}: magic, version, sizes, last use ({@link
 * #OFF_LAST_USED}, written at most once a second), identity, slots and spans ({@link FrameSpans}).
 * Headers from disk are hostile until checked: {@link #read} takes only this layout with tables
 * under 2 GiB, {@link #readSpans} only a span table matching its CRC and the video. Immutable.
 *
 * @param frames the video's frames (positions 0 to frames - 1)
 * @param slots the positions the file keeps: {@code frames}, or the spans' count
 * @param spans the spans in the span table, 0 for the whole video
 * @param spansCrc the CRC-32C of the span table (0 without one)
 * @param lastUsedMillis when a process last used the file (for least-recently-used eviction)
 */
record CacheFileHeader(
    int frames,
    int slots,
    int spans,
    int spansCrc,
    long slotBytes,
    long dataOffset,
    long lastUsedMillis,
    String identity) {
  static final long MAGIC = 0x53454d4152465352L; // "RSFRAMES" read little-endian
  // 2: the checksum covers the slot's fields; nothing is mapped. 3: slots for spans of the video.
  static final int VERSION = 3;
  static final int BYTES = 8192;
  static final int SLOT_ENTRY_BYTES = 64;
  static final int SPAN_BYTES = 8;
  static final int MAX_IDENTITY_BYTES = BYTES - 64;
  static final int OFF_LAST_USED = 32;

  /** Most slots a file may have (its slot table stays under 2 GiB). */
  static final int MAX_FRAMES = (Integer.MAX_VALUE - BYTES - 4095) / SLOT_ENTRY_BYTES;

  /** Most spans a file may list: far more episodes than one MP4 holds; the table stays small. */
  static final int MAX_SPANS = 1 << 20;

  private static final int OFF_MAGIC = 0;
  private static final int OFF_VERSION = 8;
  private static final int OFF_FRAMES = 12;
  private static final int OFF_SLOT_BYTES = 16;
  private static final int OFF_DATA = 24;
  private static final int OFF_IDENTITY_LENGTH = 40;
  private static final int OFF_SLOTS = 44;
  private static final int OFF_SPANS = 48;
  private static final int OFF_SPANS_CRC = 52;
  private static final int OFF_IDENTITY = 64;

  /** A whole video's header: a slot per frame, no span table. */
  CacheFileHeader(
      int frames, long slotBytes, long dataOffset, long lastUsedMillis, String identity) {
    this(frames, frames, 0, 0, slotBytes, dataOffset, lastUsedMillis, identity);
  }

  /** Where the slots start for a whole video of {@code frames}: after the header and slot table. */
  static long dataOffsetFor(int frames) {
    return dataOffsetFor(frames, 0);
  }

  /** Where the slots start: after the header, the slot table and the span table, 4 KiB aligned. */
  static long dataOffsetFor(int slots, int spans) {
    long tablesEnd = BYTES + (long) slots * SLOT_ENTRY_BYTES + (long) spans * SPAN_BYTES;
    return (tablesEnd + 4095) & ~4095L;
  }

  /** Where the span table starts: right after the slot table. */
  long spanTableOffset() {
    return BYTES + (long) slots * SLOT_ENTRY_BYTES;
  }

  /**
   * A new file's header for {@code covered} of a video of {@code frames} (the whole video when it
   * covers every frame), last used now; null when it cannot be written (see {@link #read}).
   */
  static CacheFileHeader of(String identity, int frames, FrameSpans covered, long slotBytes) {
    boolean whole = covered == null || covered.isWhole(frames);
    int slots = whole ? frames : covered.count();
    int spans = whole ? 0 : covered.spans();
    CacheFileHeader h =
        new CacheFileHeader(
            frames,
            slots,
            spans,
            whole ? 0 : spansCrc(spanTable(covered)),
            slotBytes,
            dataOffsetFor(slots, spans),
            System.currentTimeMillis(),
            identity);
    return h.valid(identity.getBytes(StandardCharsets.UTF_8).length) ? h : null;
  }

  /** A whole video's new header (see {@link #of(String, int, FrameSpans, long)}). */
  static CacheFileHeader of(String identity, int frames, long slotBytes) {
    return of(identity, frames, null, slotBytes);
  }

  private boolean valid(int identityBytes) {
    boolean slotsFit =
        spans == 0
            ? slots == frames && spansCrc == 0
            : slots >= 1 && slots <= frames && spans <= Math.min(slots, MAX_SPANS);
    return frames > 0
        && frames <= MAX_FRAMES
        && slotsFit
        && slotBytes > 0
        && slotBytes <= CacheFile.MAX_SLOT_BYTES
        && dataOffset == dataOffsetFor(slots, spans)
        && dataOffset <= Integer.MAX_VALUE
        && identityBytes >= 0
        && identityBytes <= MAX_IDENTITY_BYTES;
  }

  /** The span table of {@code covered}: first position and count of each span. */
  static ByteBuffer spanTable(FrameSpans covered) {
    ByteBuffer b = ByteBuffer.allocate(covered.spans() * SPAN_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < covered.spans(); i++) {
      b.putInt(covered.first(i)).putInt(covered.length(i));
    }
    return b.flip();
  }

  private static int spansCrc(ByteBuffer table) {
    CRC32C crc = new CRC32C();
    crc.update(table.duplicate());
    return (int) crc.getValue();
  }

  /**
   * The positions the file {@code ch} (whose header this is) keeps: the whole video, or its span
   * table; null when the table is cut short, does not match its checksum, or is not sorted,
   * disjoint spans within the video (a table from disk is hostile).
   */
  FrameSpans readSpans(FileChannel ch) throws IOException {
    if (spans == 0) {
      return FrameSpans.whole(frames);
    }
    ByteBuffer table = ByteBuffer.allocate(spans * SPAN_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    long at = spanTableOffset();
    while (table.hasRemaining()) {
      int n = ch.read(table, at + table.position());
      if (n < 0) {
        return null;
      }
    }
    table.flip();
    if (spansCrc(table) != spansCrc) {
      return null;
    }
    int[] firsts = new int[spans];
    int[] counts = new int[spans];
    for (int i = 0; i < spans; i++) {
      firsts[i] = table.getInt();
      counts[i] = table.getInt();
    }
    FrameSpans covered = FrameSpans.checked(firsts, counts, frames);
    return covered != null && covered.count() == slots ? covered : null;
  }

  /** The header's bytes. */
  ByteBuffer bytes() {
    byte[] id = identity.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(OFF_MAGIC, MAGIC);
    b.putInt(OFF_VERSION, VERSION);
    b.putInt(OFF_FRAMES, frames);
    b.putLong(OFF_SLOT_BYTES, slotBytes);
    b.putLong(OFF_DATA, dataOffset);
    b.putLong(OFF_LAST_USED, lastUsedMillis);
    b.putInt(OFF_IDENTITY_LENGTH, id.length);
    b.putInt(OFF_SLOTS, slots);
    b.putInt(OFF_SPANS, spans);
    b.putInt(OFF_SPANS_CRC, spansCrc);
    b.put(OFF_IDENTITY, id);
    return b;
  }

  /**
   * The header of the cache file at {@code path}, or null when it is not one of ours (or not a
   * regular file of user {@code uid}: nothing else is opened).
   */
  static CacheFileHeader read(Path path, int uid) throws IOException {
    try (FileChannel ch = CacheFolder.openOwnFile(path, uid)) {
      return ch == null ? null : read(ch);
    }
  }

  /**
   * Whether {@code path} is a regular file of user {@code uid} with this cache's magic and an older
   * version: written by an earlier robostream, in a layout this one does not read.
   */
  static boolean isOlderVersionOfOurs(Path path, int uid) throws IOException {
    try (FileChannel ch = CacheFolder.openOwnFile(path, uid)) {
      if (ch == null) {
        return false;
      }
      ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining()) {
        if (ch.read(b, b.position()) < 0) {
          return false;
        }
      }
      int version = b.getInt(OFF_VERSION);
      return b.getLong(OFF_MAGIC) == MAGIC && version > 0 && version < VERSION;
    } catch (java.nio.file.NoSuchFileException gone) {
      return false;
    }
  }

  /**
   * The header {@code ch} starts with, or null when it is not one of ours: another magic or
   * version, fields this version does not write, or a file shorter than its slot table.
   */
  static CacheFileHeader read(FileChannel ch) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (ch.read(b, b.position()) < 0) {
        return null;
      }
    }
    if (b.getLong(OFF_MAGIC) != MAGIC || b.getInt(OFF_VERSION) != VERSION) {
      return null;
    }
    int idLength = b.getInt(OFF_IDENTITY_LENGTH);
    if (idLength < 0 || idLength > MAX_IDENTITY_BYTES) {
      return null;
    }
    byte[] id = new byte[idLength];
    b.get(OFF_IDENTITY, id);
    CacheFileHeader h =
        new CacheFileHeader(
            b.getInt(OFF_FRAMES),
            b.getInt(OFF_SLOTS),
            b.getInt(OFF_SPANS),
            b.getInt(OFF_SPANS_CRC),
            b.getLong(OFF_SLOT_BYTES),
            b.getLong(OFF_DATA),
            b.getLong(OFF_LAST_USED),
            new String(id, StandardCharsets.UTF_8));
    return h.valid(idLength) && ch.size() >= h.dataOffset ? h : null;
  }
}
