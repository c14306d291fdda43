package org.robostream.video;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Deterministic mutations of an MP4: truncations, byte flips, zeroed boxes, garbage blocks. */
final class Mutations {
  private static final List<String> CONTAINERS =
      List.of("moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "udta");

  record Mutation(byte[] bytes, String description) {}

  private Mutations() {}

  static Mutation mutate(byte[] seed, int caseNumber) {
    Random rng = new Random(0x5eedL * 31 + caseNumber);
    byte[] b = seed.clone();
    switch (caseNumber % 4) {
      case 0 -> {
        int len = caseNumber % 40 == 0 ? rng.nextInt(64) : rng.nextInt(b.length);
        return new Mutation(Arrays.copyOf(b, len), "truncate@" + len);
      }
      case 1 -> {
        int flips = 1 + rng.nextInt(16);
        for (int k = 0; k < flips; k++) {
          int at = rng.nextInt(b.length);
          b[at] ^= (byte) (1 << rng.nextInt(8));
        }
        return new Mutation(b, "flip" + flips);
      }
      case 2 -> {
        List<int[]> boxes = boxes(seed);
        int[] box = boxes.get(rng.nextInt(boxes.size()));
        boolean headerOnly = rng.nextBoolean();
        int end = headerOnly ? Math.min(box[0] + 8, b.length) : Math.min(box[0] + box[1], b.length);
        Arrays.fill(b, box[0], end, (byte) 0);
        return new Mutation(b, (headerOnly ? "zero-header@" : "zero-box@") + box[0]);
      }
      default -> {
        int at = rng.nextInt(b.length);
        int len = Math.min(b.length - at, 1 + rng.nextInt(512));
        for (int k = 0; k < len; k++) {
          b[at + k] = (byte) rng.nextInt(256);
        }
        return new Mutation(b, "garbage@" + at + "+" + len);
      }
    }
  }

  /** (offset, size) of every box, descending into the usual container boxes. */
  static List<int[]> boxes(byte[] data) {
    List<int[]> out = new ArrayList<>();
    walk(ByteBuffer.wrap(data), 0, data.length, out);
    return out;
  }

  private static void walk(ByteBuffer buf, int start, int end, List<int[]> out) {
    int pos = start;
    while (pos + 8 <= end) {
      long size = Integer.toUnsignedLong(buf.getInt(pos));
      String type = new String(new byte[] {buf.get(pos + 4), buf.get(pos + 5), buf.get(pos + 6),
          buf.get(pos + 7)}, java.nio.charset.StandardCharsets.ISO_8859_1);
      if (size == 1 && pos + 16 <= end) {
        size = buf.getLong(pos + 8);
      } else if (size == 0) {
        size = end - pos;
      }
      if (size < 8 || pos + size > end) {
        return;
      }
      out.add(new int[] {pos, (int) size});
      if (CONTAINERS.contains(type)) {
        walk(buf, pos + 8, (int) (pos + size), out);
      } else if (type.equals("stsd")) {
        walk(buf, pos + 16, (int) (pos + size), out);
      }
      pos += (int) size;
    }
  }
}
