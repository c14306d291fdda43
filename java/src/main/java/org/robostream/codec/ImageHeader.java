package org.robostream.codec;

/**
 * The format and size an encoded image declares in its header (PNG's IHDR chunk, JPEG's start of
 * frame), read before any decoding so that an image of another size than its feature declares is
 * refused with both sizes before a decoder allocates for it. Immutable.
 */
public record ImageHeader(Format format, int width, int height) {
  /** The encodings image features hold. */
  public enum Format {
    PNG,
    JPEG
  }

  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

  /**
   * Reads the header of {@code bytes[0, length)}; null when they are neither a PNG nor a JPEG with
   * a readable size.
   */
  public static ImageHeader read(byte[] bytes, int length) {
    if (length >= 24 && startsWith(bytes, PNG_SIGNATURE) && isChunk(bytes, 12, "IHDR")) {
      return new ImageHeader(Format.PNG, int32(bytes, 16), int32(bytes, 20));
    }
    if (length >= 4 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xD8) {
      return jpeg(bytes, length);
    }
    return null;
  }

  /** Walks the JPEG's marker segments up to its first start-of-frame (SOF0..SOF15 but 4, 8, 12). */
  private static ImageHeader jpeg(byte[] b, int length) {
    int at = 2;
    while (at + 4 <= length) {
      if ((b[at] & 0xFF) != 0xFF) {
        return null;
      }
      int marker = b[at + 1] & 0xFF;
      if (marker == 0xFF) {
        at++; // fill byte
        continue;
      }
      int segment = ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
      boolean startOfFrame =
          marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (startOfFrame) {
        if (at + 9 > length) {
          return null;
        }
        int height = ((b[at + 5] & 0xFF) << 8) | (b[at + 6] & 0xFF);
        int width = ((b[at + 7] & 0xFF) << 8) | (b[at + 8] & 0xFF);
        return new ImageHeader(Format.JPEG, width, height);
      }
      if (segment < 2 || marker == 0xD9 || marker == 0xDA) {
        return null; // end of image or scan data before any frame header
      }
      at += 2 + segment;
    }
    return null;
  }

  private static boolean startsWith(byte[] b, byte[] prefix) {
    for (int i = 0; i < prefix.length; i++) {
      if (b[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static boolean isChunk(byte[] b, int at, String type) {
    for (int i = 0; i < 4; i++) {
      if (b[at + i] != type.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static int int32(byte[] b, int at) {
    long v = 0;
    for (int i = 0; i < 4; i++) {
      v = (v << 8) | (b[at + i] & 0xFF);
    }
    return (int) Math.min(v, Integer.MAX_VALUE);
  }
}
