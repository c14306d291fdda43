package org.robostream.codec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The ISO BMFF boxes of an MP4, descending into the container boxes the fuzz test targets. */
final class Mp4Boxes {
  private static final List<String> CONTAINERS =
      List.of("moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "udta");

  /**
   * One box: {@code path} is the types from the top level down, joined by '/' ("moov/trak/tkhd").
   */
  record Box(String path, int offset, int size) {
    String type() {
      return path.substring(path.lastIndexOf('/') + 1);
    }

    int end() {
      return offset + size;
    }

    /** Whether this box is {@code type} or lies inside a box of that type. */
    boolean within(String type) {
      return List.of(path.split("/")).contains(type);
    }
  }

  private Mp4Boxes() {}

  /** Every box of a well-formed file, parents before their children. */
  static List<Box> of(byte[] data) {
    List<Box> out = new ArrayList<>();
    walk(ByteBuffer.wrap(data), "", 0, data.length, out);
    return out;
  }

  private static void walk(ByteBuffer buf, String parent, int start, int end, List<Box> out) {
    int pos = start;
    while (pos + 8 <= end) {
      long size = Integer.toUnsignedLong(buf.getInt(pos));
      String type =
          new String(
              new byte[] {buf.get(pos + 4), buf.get(pos + 5), buf.get(pos + 6), buf.get(pos + 7)},
              StandardCharsets.ISO_8859_1);
      if (size == 1 && pos + 16 <= end) {
        size = buf.getLong(pos + 8);
      } else if (size == 0) {
        size = end - pos;
      }
      if (size < 8 || pos + size > end) {
        return;
      }
      String path = parent.isEmpty() ? type : parent + "/" + type;
      out.add(new Box(path, pos, (int) size));
      if (CONTAINERS.contains(type)) {
        walk(buf, path, pos + 8, (int) (pos + size), out);
      } else if (type.equals("stsd")) {
        walk(buf, path, pos + 16, (int) (pos + size), out);
      }
      pos += (int) size;
    }
  }
}
