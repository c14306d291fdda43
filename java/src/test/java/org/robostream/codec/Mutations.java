package org.robostream.codec;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Deterministic mutations of an MP4 (case n is the same on every run and in every JVM):
 * truncations, bit flips, zeroed boxes or box headers, blocks of random bytes.
 */
final class Mutations {
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
        List<Mp4Boxes.Box> boxes = Mp4Boxes.of(seed);
        Mp4Boxes.Box box = boxes.get(rng.nextInt(boxes.size()));
        boolean headerOnly = rng.nextBoolean();
        int end = Math.min(headerOnly ? box.offset() + 8 : box.end(), b.length);
        Arrays.fill(b, box.offset(), end, (byte) 0);
        return new Mutation(b, (headerOnly ? "zero-header:" : "zero-box:") + box.path());
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
}
