package org.robostream.codec;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a mutated file differs from its seed: runs [from, to) of changed bytes, a cut-off tail
 * counting as changed. Computed from the bytes, so it is exact whatever the mutation did.
 */
record ByteChanges(List<int[]> runs) {
  static ByteChanges between(byte[] seed, byte[] mutated) {
    List<int[]> runs = new ArrayList<>();
    int common = Math.min(seed.length, mutated.length);
    int i = 0;
    while (i < common) {
      if (seed[i] == mutated[i]) {
        i++;
        continue;
      }
      int start = i;
      while (i < common && seed[i] != mutated[i]) {
        i++;
      }
      runs.add(new int[] {start, i});
    }
    if (mutated.length != seed.length) {
      runs.add(new int[] {common, Math.max(seed.length, mutated.length)});
    }
    return new ByteChanges(List.copyOf(runs));
  }

  boolean isEmpty() {
    return runs.isEmpty();
  }

  /** Whether any changed byte lies in [from, to). */
  boolean touches(long from, long to) {
    for (int[] run : runs) {
      if (run[0] < to && from < run[1]) {
        return true;
      }
    }
    return false;
  }
}
