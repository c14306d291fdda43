package org.robostream.dataset;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Episode selections written as ranges, {@code 0-9,12}: what {@code episodes("0-9,12")} and the
 * CLI's {@code --episodes} read, and how messages write a selection back (so a message's remedy is
 * text a user can paste). Stateless.
 */
public final class EpisodeRanges {
  /**
   * The most indices one selection may expand to: a bound before allocating ({@code 0-2000000000}
   * is a typo, not a dataset), and far more episodes than any dataset lists.
   */
  public static final int MAX_EPISODES = 1 << 24;

  private EpisodeRanges() {}

  /**
   * The episodes {@code text} names, ascending and distinct: comma-separated indices and inclusive
   * ranges {@code a-b}, blanks ignored.
   *
   * @throws IllegalArgumentException naming the text and the part that is not an index or range
   */
  public static List<Integer> parse(String text) {
    TreeSet<Integer> out = new TreeSet<>();
    long expanded = 0;
    for (String part : text.split(",", -1)) {
      String p = part.strip();
      int dash = p.indexOf('-', 1);
      int from = index(text, p, dash < 0 ? p : p.substring(0, dash));
      int to = dash < 0 ? from : index(text, p, p.substring(dash + 1));
      if (to < from) {
        throw bad(text, p, "a range that goes down");
      }
      expanded += (long) to - from + 1;
      if (expanded > MAX_EPISODES) {
        throw bad(text, p, "past " + MAX_EPISODES + " episodes in all");
      }
      for (int e = from; e <= to; e++) {
        out.add(e);
      }
    }
    return List.copyOf(out);
  }

  /** {@code episodes} as ranges, ascending: {@code [0, 1, 2, 3, 7]} is {@code 0-3,7}. */
  public static String format(Collection<Integer> episodes) {
    List<Integer> sorted = List.copyOf(new TreeSet<>(episodes));
    List<String> parts = new ArrayList<>();
    int i = 0;
    while (i < sorted.size()) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
        j++;
      }
      parts.add(j == i ? sorted.get(i).toString() : sorted.get(i) + "-" + sorted.get(j));
      i = j + 1;
    }
    return String.join(",", parts);
  }

  private static int index(String text, String part, String digits) {
    String d = digits.strip();
    if (d.isEmpty() || !d.chars().allMatch(Character::isDigit)) {
      throw bad(text, part, "not an episode index (0, 1, ...) or a range of them (0-9)");
    }
    try {
      return Integer.parseInt(d);
    } catch (NumberFormatException e) {
      throw bad(text, part, "an index beyond " + Integer.MAX_VALUE);
    }
  }

  private static IllegalArgumentException bad(String text, String part, String problem) {
    return new IllegalArgumentException(
        "episodes(\""
            + text
            + "\"): \""
            + part
            + "\" is "
            + problem
            + "; write indices and ranges such as 0-9,12");
  }
}
