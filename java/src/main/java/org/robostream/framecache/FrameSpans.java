package org.robostream.framecache;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Frame positions of one video file, as sorted, disjoint, non-adjacent spans {@code [first, first +
 * count)}: which frames a cache file keeps slots for. In a LeRobot v3.0 dataset many episodes share
 * one MP4, and a loader with an episode selection reads only its episodes' spans of it; a cache
 * file that reserved the whole video would hold the budget for frames nobody asks for. Slot {@code
 * i} of a file holds its {@code i}-th covered position ({@link #slotOf}). Immutable.
 */
public final class FrameSpans {
  private final int[] firsts; // ascending
  private final int[] ends; // exclusive; ends[i] < firsts[i + 1]
  private final int[] slotsBefore; // covered positions before span i
  private final int count;

  private FrameSpans(int[] firsts, int[] ends) {
    this.firsts = firsts;
    this.ends = ends;
    this.slotsBefore = new int[firsts.length];
    long n = 0;
    for (int i = 0; i < firsts.length; i++) {
      slotsBefore[i] = (int) n;
      n += ends[i] - firsts[i];
    }
    this.count = (int) n;
  }

  /** Every position of a video of {@code frames} frames. */
  public static FrameSpans whole(int frames) {
    if (frames < 1) {
      throw new IllegalArgumentException("a video has at least one frame, got " + frames);
    }
    return new FrameSpans(new int[] {0}, new int[] {frames});
  }

  /** Collects spans in any order, overlapping or not. Not thread-safe. */
  public static final class Builder {
    private final List<int[]> spans = new ArrayList<>();

    /** Adds positions {@code [first, first + count)}. */
    public Builder add(int first, int count) {
      if (first < 0 || count < 1 || (long) first + count > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "a span is positions [first, first + count) with first >= 0 and count >= 1, got first "
                + first
                + ", count "
                + count);
      }
      spans.add(new int[] {first, first + count});
      return this;
    }

    /** The spans added, merged; null when none was. */
    public FrameSpans build() {
      if (spans.isEmpty()) {
        return null;
      }
      List<int[]> sorted = new ArrayList<>(spans);
      sorted.sort((a, b) -> Integer.compare(a[0], b[0]));
      int[] firsts = new int[sorted.size()];
      int[] ends = new int[sorted.size()];
      int n = 0;
      for (int[] s : sorted) {
        if (n > 0 && s[0] <= ends[n - 1]) {
          ends[n - 1] = Math.max(ends[n - 1], s[1]); // overlapping or adjacent: one span
        } else {
          firsts[n] = s[0];
          ends[n] = s[1];
          n++;
        }
      }
      return new FrameSpans(Arrays.copyOf(firsts, n), Arrays.copyOf(ends, n));
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Spans read from a cache file, {@code firsts[i]} and {@code counts[i]} each; null unless they
   * are sorted, disjoint, non-adjacent and within {@code [0, frames)} (a table from disk is
   * hostile).
   */
  static FrameSpans checked(int[] firsts, int[] counts, int frames) {
    if (firsts.length == 0 || firsts.length != counts.length) {
      return null;
    }
    int[] ends = new int[firsts.length];
    long previousEnd = -1;
    for (int i = 0; i < firsts.length; i++) {
      long end = (long) firsts[i] + counts[i];
      if (firsts[i] < 0 || counts[i] < 1 || end > frames || firsts[i] <= previousEnd) {
        return null;
      }
      ends[i] = (int) end;
      previousEnd = end;
    }
    return new FrameSpans(firsts.clone(), ends);
  }

  /** Positions covered: the slots a file of these spans has. */
  public int count() {
    return count;
  }

  /** Number of spans. */
  public int spans() {
    return firsts.length;
  }

  /** First position of span {@code i}. */
  public int first(int i) {
    return firsts[i];
  }

  /** Positions in span {@code i}. */
  public int length(int i) {
    return ends[i] - firsts[i];
  }

  /** The slot of {@code position}: how many covered positions come before it; -1 if uncovered. */
  public int slotOf(int position) {
    int i = Arrays.binarySearch(firsts, position);
    if (i < 0) {
      i = -i - 2; // the span starting before it
    }
    if (i < 0 || position >= ends[i]) {
      return -1;
    }
    return slotsBefore[i] + position - firsts[i];
  }

  /** Whether every position of {@code other} is covered here. */
  public boolean covers(FrameSpans other) {
    int i = 0;
    for (int j = 0; j < other.firsts.length; j++) {
      while (i < firsts.length && ends[i] <= other.firsts[j]) {
        i++;
      }
      if (i == firsts.length || firsts[i] > other.firsts[j] || ends[i] < other.ends[j]) {
        return false;
      }
    }
    return true;
  }

  /** The positions covered here or by {@code other}. */
  public FrameSpans union(FrameSpans other) {
    Builder b = builder();
    addTo(b);
    other.addTo(b);
    return b.build();
  }

  /** The positions covered here that lie in {@code [0, frames)}; null when none does. */
  public FrameSpans within(int frames) {
    Builder b = builder();
    for (int i = 0; i < firsts.length && firsts[i] < frames; i++) {
      b.add(firsts[i], Math.min(ends[i], frames) - firsts[i]);
    }
    return b.build();
  }

  /** Whether this covers exactly {@code [0, frames)}. */
  public boolean isWhole(int frames) {
    return firsts.length == 1 && firsts[0] == 0 && ends[0] == frames;
  }

  private void addTo(Builder b) {
    for (int i = 0; i < firsts.length; i++) {
      b.add(firsts[i], ends[i] - firsts[i]);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FrameSpans s
        && Arrays.equals(firsts, s.firsts)
        && Arrays.equals(ends, s.ends);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(firsts) * 31 + Arrays.hashCode(ends);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("[");
    for (int i = 0; i < firsts.length; i++) {
      s.append(i == 0 ? "" : ", ").append(firsts[i]).append("..").append(ends[i] - 1);
    }
    return s.append("] (").append(count).append(" frames)").toString();
  }
}
