package org.robostream.framecache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The first {@link #BYTES} of a {@link CacheFile} (little-endian): magic "RSFRAMES", version,
 * frames, slot bytes, data offset, last use (ms since the epoch, {@link #OFF_LAST_USED}, written by
 * every user at most once a second), the identity (UTF-8: whose frames these are). A header read
 * from disk is hostile until checked: {@link #read} accepts only the layout this version writes,
 * with a slot table under 2 GiB. Immutable.
 *
 * @param lastUsedMillis when a process last used the file (for least-recently-used eviction)
 */
record CacheFileHeader(
    int frames, long slotBytes, long dataOffset, long lastUsedMillis, String identity) {
  static final long MAGIC = 0x53454d4152465352L; // "RSFRAMES" read little-endian
  static final int VERSION = 2; // 2: the checksum covers the slot's fields; nothing is mapped
  static final int BYTES = 8192;
  static final int SLOT_ENTRY_BYTES = 64;
  static final int MAX_IDENTITY_BYTES = BYTES - 64;
  static final int OFF_LAST_USED = 32;

  /** Most slots a file may have (its slot table stays under 2 GiB). */
  static final int MAX_FRAMES = (Integer.MAX_VALUE - BYTES - 4095) / SLOT_ENTRY_BYTES;

  private static final int OFF_MAGIC = 0;
  private static final int OFF_VERSION = 8;
  private static final int OFF_FRAMES = 12;
  private static final int OFF_SLOT_BYTES = 16;
  private static final int OFF_DATA = 24;
  private static final int OFF_IDENTITY_LENGTH = 40;
  private static final int OFF_IDENTITY = 64;

  /** Where the slots start: after the header and the slot table, 4 KiB aligned. */
  static long dataOffsetFor(int frames) {
    long tableEnd = BYTES + (long) frames * SLOT_ENTRY_BYTES;
    return (tableEnd + 4095) & ~4095L;
  }

  /** A new file's header, last used now; null when it cannot be written (see {@link #read}). */
  static CacheFileHeader of(String identity, int frames, long slotBytes) {
    CacheFileHeader h =
        new CacheFileHeader(
            frames, slotBytes, dataOffsetFor(frames), System.currentTimeMillis(), identity);
    return h.valid(identity.getBytes(StandardCharsets.UTF_8).length) ? h : null;
  }

  private boolean valid(int identityBytes) {
    return frames > 0
        && frames <= MAX_FRAMES
        && slotBytes > 0
        && slotBytes <= CacheFile.MAX_SLOT_BYTES
        && dataOffset == dataOffsetFor(frames)
        && identityBytes >= 0
        && identityBytes <= MAX_IDENTITY_BYTES;
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
            b.getLong(OFF_SLOT_BYTES),
            b.getLong(OFF_DATA),
            b.getLong(OFF_LAST_USED),
            new String(id, StandardCharsets.UTF_8));
    return h.valid(idLength) && ch.size() >= h.dataOffset ? h : null;
  }
}
