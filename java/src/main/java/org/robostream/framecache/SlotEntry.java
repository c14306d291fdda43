package org.robostream.framecache;

import java.nio.ByteBuffer;
import org.robostream.video.ColorSpec;
import org.robostream.video.PackedPicture;

/**
 * One slot's 64 bytes in a {@link CacheFile}'s slot table (little-endian): the state at 0 (owned by
 * CacheFile's protocol), then the CRC-32C of the picture's bytes at 4, its bytes at 8, width 16,
 * height 20, pixel format 24, colour matrix 28 (-1: none), full range 32, pts 40, frame index 48,
 * when a writer claimed the slot at {@link #CLAIMED_AT}. The table is as hostile as the bytes (the
 * checksum covers only the picture): {@link #read} serves only fields that describe a picture of
 * exactly its bytes within the slot, so a picture is never read past its slot. Stateless.
 */
final class SlotEntry {
  static final int CLAIMED_AT = 56;

  private static final int CRC = 4;
  private static final int BYTES = 8;
  private static final int WIDTH = 16;
  private static final int HEIGHT = 20;
  private static final int FORMAT = 24;
  private static final int MATRIX = 28;
  private static final int FULL_RANGE = 32;
  private static final int PTS = 40;
  private static final int FRAME_INDEX = 48;

  private SlotEntry() {}

  /** Writes {@code f}'s fields (not its state) into the entry at {@code off}. */
  static void write(ByteBuffer table, int off, CachedFrame f, int crc32c) {
    ColorSpec color = f.color();
    table.putInt(off + CRC, crc32c);
    table.putLong(off + BYTES, f.bytes());
    table.putInt(off + WIDTH, f.width());
    table.putInt(off + HEIGHT, f.height());
    table.putInt(off + FORMAT, f.pixelFormat());
    table.putInt(off + MATRIX, color == null ? -1 : color.matrix().ordinal());
    table.putInt(off + FULL_RANGE, color != null && color.fullRange() ? 1 : 0);
    table.putDouble(off + PTS, f.ptsSeconds());
    table.putLong(off + FRAME_INDEX, f.frameIndex());
  }

  /** The checksum the entry at {@code off} records for its picture's bytes. */
  static int crc(ByteBuffer table, int off) {
    return table.getInt(off + CRC);
  }

  /**
   * The picture the entry at {@code off} describes, its bytes at {@code address}; null when its
   * fields do not describe a picture of exactly its bytes within {@code slotBytes}.
   */
  static CachedFrame read(ByteBuffer table, int off, long address, long slotBytes) {
    long bytes = table.getLong(off + BYTES);
    int width = table.getInt(off + WIDTH);
    int height = table.getInt(off + HEIGHT);
    int format = table.getInt(off + FORMAT);
    int matrix = table.getInt(off + MATRIX);
    if (bytes <= 0
        || bytes > slotBytes
        || width <= 0
        || height <= 0
        || matrix < -1
        || matrix >= ColorSpec.Matrix.values().length
        || !isPackedSize(bytes, width, height, format)) {
      return null;
    }
    ColorSpec color =
        matrix < 0
            ? null
            : new ColorSpec(ColorSpec.Matrix.values()[matrix], table.getInt(off + FULL_RANGE) != 0);
    return new CachedFrame(
        address,
        bytes,
        width,
        height,
        format,
        color,
        table.getDouble(off + PTS),
        table.getLong(off + FRAME_INDEX));
  }

  private static boolean isPackedSize(long bytes, int width, int height, int format) {
    try {
      return PackedPicture.packedBytes(width, height, format) == bytes;
    } catch (IllegalArgumentException notAPicture) {
      return false;
    }
  }
}
