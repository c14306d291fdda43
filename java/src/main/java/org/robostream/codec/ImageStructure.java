package org.robostream.codec;

import java.util.zip.CRC32;

/**
 * Whether an encoded image is whole, checked before it is decoded: FFmpeg's decoders conceal what
 * they can (a JPEG cut in its scan data decodes, with the missing rows made up; a palette PNG
 * without its palette decodes black), and a made-up picture in a training set is silently wrong
 * data. A PNG must be a sequence of whole chunks whose CRC-32s match, IHDR first, a PLTE before the
 * first IDAT when its colour type is palette, and an IEND; a JPEG must have a frame header of 1 or
 * 3 components, a scan, and an end-of-image marker after its scan data. Stateless.
 */
final class ImageStructure {
  private static final int PNG_PALETTE = 3;
  private static final int JPEG_EOI = 0xD9;
  private static final int JPEG_SOS = 0xDA;

  private ImageStructure() {}

  /** What is wrong with {@code bytes[0, length)} as a {@code format} image, or null. */
  static String problem(ImageHeader.Format format, byte[] bytes, int length) {
    return format == ImageHeader.Format.PNG ? png(bytes, length) : jpeg(bytes, length);
  }

  /** Whether {@code bytes[0, length)} is a JPEG of 4 components (CMYK or YCCK). */
  static boolean isFourComponentJpeg(byte[] b, int length) {
    int sof = jpegFrameHeader(b, length);
    return sof >= 0 && sof + 9 < length && (b[sof + 9] & 0xFF) == 4;
  }

  private static String png(byte[] b, int length) {
    int at = 8;
    int chunk = 0;
    int colourType = -1;
    boolean palette = false;
    boolean data = false;
    CRC32 crc = new CRC32();
    while (true) {
      if (at + 12 > length) {
        return "truncated: the PNG ends "
            + (at == length ? "without an IEND chunk" : "inside chunk " + chunk)
            + " ("
            + length
            + " bytes)";
      }
      long size = uint32(b, at);
      if (size > length - at - 12) {
        return "truncated: chunk " + chunk + " says " + size + " bytes, past the image's end";
      }
      String type = new String(b, at + 4, 4, java.nio.charset.StandardCharsets.ISO_8859_1);
      crc.reset();
      crc.update(b, at + 4, 4 + (int) size);
      if ((int) crc.getValue() != (int) uint32(b, at + 8 + (int) size)) {
        return "chunk " + chunk + " (" + printable(type) + ") does not match its CRC-32";
      }
      if (chunk == 0 && !type.equals("IHDR")) {
        return "the first chunk is not IHDR";
      }
      switch (type) {
        case "IHDR" -> colourType = size >= 10 ? b[at + 8 + 9] & 0xFF : -1;
        case "PLTE" -> palette = true;
        case "IDAT" -> {
          if (colourType == PNG_PALETTE && !palette) {
            return "a palette PNG without a PLTE chunk before its image data";
          }
          data = true;
        }
        case "IEND" -> {
          return data ? null : "the PNG has no IDAT chunk";
        }
        default -> {}
      }
      at += 12 + (int) size;
      chunk++;
    }
  }

  private static String jpeg(byte[] b, int length) {
    int sof = jpegFrameHeader(b, length);
    if (sof < 0 || sof + 9 >= length) {
      return "the JPEG has no whole frame header";
    }
    int components = b[sof + 9] & 0xFF;
    if (components != 1 && components != 3) {
      return "the JPEG has " + components + " components (1 or 3 decode)";
    }
    // Segments up to the first scan, then the scan data up to a marker; repeat (progressive JPEGs
    // have several scans) until the end-of-image marker.
    int at = 2;
    boolean scanned = false;
    while (at + 1 < length) {
      if ((b[at] & 0xFF) != 0xFF) {
        return "the JPEG's marker segments are broken at byte " + at;
      }
      int marker = b[at + 1] & 0xFF;
      if (marker == 0xFF) {
        at++;
        continue;
      }
      if (marker == JPEG_EOI) {
        return scanned ? null : "the JPEG ends before any scan";
      }
      if (at + 4 > length) {
        break;
      }
      int segment = ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
      if (segment < 2) {
        return "the JPEG's marker segments are broken at byte " + at;
      }
      at += 2 + segment;
      if (marker == JPEG_SOS) {
        scanned = true;
        at = endOfScanData(b, length, at);
      }
    }
    return "truncated: the JPEG ends without its end-of-image marker (" + length + " bytes)";
  }

  /**
   * Where the entropy-coded data starting at {@code at} ends: the next marker that is neither a
   * stuffed zero nor a restart marker, or {@code length}.
   */
  private static int endOfScanData(byte[] b, int length, int at) {
    for (int i = at; i + 1 < length; i++) {
      if ((b[i] & 0xFF) == 0xFF) {
        int next = b[i + 1] & 0xFF;
        if (next != 0x00 && next != 0xFF && (next < 0xD0 || next > 0xD7)) {
          return i;
        }
      }
    }
    return length;
  }

  /** Where the JPEG's start-of-frame segment's marker is, or -1. */
  private static int jpegFrameHeader(byte[] b, int length) {
    int at = 2;
    while (at + 4 <= length) {
      if ((b[at] & 0xFF) != 0xFF) {
        return -1;
      }
      int marker = b[at + 1] & 0xFF;
      if (marker == 0xFF) {
        at++;
        continue;
      }
      boolean startOfFrame =
          marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
      if (startOfFrame) {
        return at;
      }
      int segment = ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
      if (segment < 2 || marker == JPEG_EOI || marker == JPEG_SOS) {
        return -1;
      }
      at += 2 + segment;
    }
    return -1;
  }

  private static String printable(String type) {
    return type.chars().allMatch(c -> c >= 'A' && c <= 'z') ? type : "unnamed";
  }

  private static long uint32(byte[] b, int at) {
    long v = 0;
    for (int i = 0; i < 4; i++) {
      v = (v << 8) | (b[at + i] & 0xFF);
    }
    return v;
  }
}
