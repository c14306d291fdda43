package org.robostream.framecache;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;
import org.robostream.codec.ColorSpec;
import org.robostream.codec.HeldForm;
import org.robostream.codec.HeldFrame;
import org.robostream.codec.PicturePacker;

/**
 * One slot's 64 bytes in a {@link CacheFile}'s slot table (little-endian): the state at 0 (owned by
 * CacheFile's protocol), the CRC-32C at 4, then the fields that describe the picture: its bytes at
 * 8, width 16, height 20, pixel format 24, colour matrix 28 (-1: none), full range 32, pts 40,
 * frame index 48; 56-63 are zero. The checksum covers every field that decides the pixels or where
 * the frame belongs (bytes 8 to 56 of the entry) and then the picture's bytes, so a flipped range,
 * a changed pts or frame index is a corrupt slot like a flipped pixel. The table is as hostile as
 * the bytes: {@link #describe} accepts only fields that describe a picture of exactly its bytes
 * within the slot, so a picture is never read past its slot. Stateless.
 */
final class SlotEntry {
  static final int BYTES = 64;
  static final int STATE = 0;

  private static final int CRC = 4;
  private static final int FIELDS = 8; // where the checksummed fields start
  private static final int PICTURE_BYTES = 8;
  private static final int WIDTH = 16;
  private static final int HEIGHT = 20;
  private static final int FORMAT = 24;
  private static final int MATRIX = 28;
  private static final int FULL_RANGE = 32;
  private static final int PTS = 40;
  private static final int FRAME_INDEX = 48;
  private static final int FIELDS_END = 56;

  /** No picture side is larger (FFmpeg's own checks would log every absurd size they refuse). */
  private static final int MAX_SIDE = 1 << 15;

  private SlotEntry() {}

  /** A new entry buffer (little-endian, {@link #BYTES} long). */
  static ByteBuffer buffer() {
    return ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * The entry for {@code f} in {@code entry}, complete with the checksum of its fields and the
   * picture's bytes {@code picture} (read from its position to its limit, left as they were).
   */
  static ByteBuffer complete(ByteBuffer entry, HeldFrame f, ByteBuffer picture, int state) {
    ColorSpec color = f.color();
    entry.clear();
    entry.put(new byte[BYTES]).clear();
    entry.putLong(PICTURE_BYTES, f.bytes());
    entry.putInt(WIDTH, f.width());
    entry.putInt(HEIGHT, f.height());
    entry.putInt(FORMAT, f.pixelFormat());
    entry.putInt(MATRIX, color == null ? -1 : color.matrix().ordinal());
    entry.putInt(FULL_RANGE, color != null && color.fullRange() ? 1 : 0);
    entry.putDouble(PTS, f.ptsSeconds());
    entry.putLong(FRAME_INDEX, f.frameIndex());
    entry.putInt(CRC, checksum(entry, picture));
    entry.putInt(STATE, state);
    return entry;
  }

  /** The slot's state (EMPTY, COMPLETE or anything a broken writer left). */
  static int state(ByteBuffer entry) {
    return entry.getInt(STATE);
  }

  /** Whether {@code picture}'s bytes and {@code entry}'s fields match the checksum it records. */
  static boolean matches(ByteBuffer entry, ByteBuffer picture) {
    return checksum(entry, picture) == entry.getInt(CRC);
  }

  /**
   * The checksum of {@code entry}'s fields and then {@code picture}'s bytes from its position to
   * its limit (both buffers are left as they were).
   */
  private static int checksum(ByteBuffer entry, ByteBuffer picture) {
    CRC32C crc = new CRC32C();
    crc.update(entry.duplicate().position(FIELDS).limit(FIELDS_END));
    crc.update(picture.duplicate());
    return (int) crc.getValue();
  }

  /**
   * The picture the entry describes, its bytes to be at {@code address}; null when its fields do
   * not describe a picture of exactly its bytes within {@code slotBytes}.
   */
  static HeldFrame describe(ByteBuffer entry, long address, long slotBytes) {
    long bytes = entry.getLong(PICTURE_BYTES);
    int width = entry.getInt(WIDTH);
    int height = entry.getInt(HEIGHT);
    int format = entry.getInt(FORMAT);
    int matrix = entry.getInt(MATRIX);
    int fullRange = entry.getInt(FULL_RANGE);
    if (bytes <= 0
        || bytes > slotBytes
        || width <= 0
        || height <= 0
        || width > MAX_SIDE
        || height > MAX_SIDE
        || matrix < -1
        || matrix >= ColorSpec.Matrix.values().length
        || (fullRange != 0 && fullRange != 1)
        || !isPackedSize(bytes, width, height, format)) {
      return null;
    }
    ColorSpec color =
        matrix < 0 ? null : new ColorSpec(ColorSpec.Matrix.values()[matrix], fullRange == 1);
    return new HeldFrame(
        address,
        bytes,
        width,
        height,
        new HeldForm.Packed(format),
        color,
        entry.getDouble(PTS),
        entry.getLong(FRAME_INDEX));
  }

  private static boolean isPackedSize(long bytes, int width, int height, int format) {
    try {
      return PicturePacker.packedBytes(width, height, format) == bytes;
    } catch (IllegalArgumentException notAPicture) {
      return false;
    }
  }
}
