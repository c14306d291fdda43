package org.robostream.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads summarize's aligned text table back into cells, asserting its alignment. */
public final class SummaryTables {
  private SummaryTables() {}

  /**
   * Splits an aligned table (header, dash rule, rows) into cells by the header's column starts,
   * checking that every column starts at the same offset in every line (two spaces before it).
   */
  public static List<Map<String, String>> parse(String table) {
    List<String> lines = table.lines().toList();
    String header = lines.get(0);
    List<Integer> starts = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (String name : header.trim().split(" {2,}")) {
      starts.add(header.indexOf(name, starts.isEmpty() ? 0 : starts.get(starts.size() - 1) + 1));
      names.add(name);
    }
    String rule = lines.get(1);
    for (int c = 0; c < starts.size(); c++) {
      assertEquals('-', rule.charAt(starts.get(c)), "rule under column " + names.get(c));
    }
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(2, lines.size())) {
      if (!line.startsWith(" ") && line.length() > 0 && !line.startsWith("wrote")) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int c = 0; c < starts.size(); c++) {
          int from = starts.get(c);
          int to = c + 1 < starts.size() ? starts.get(c + 1) : line.length();
          if (c > 0) {
            assertEquals(
                "  ",
                line.substring(from - 2, from),
                "column " + names.get(c) + " starts after two spaces in: " + line);
          }
          row.put(names.get(c), line.substring(from, Math.min(to, line.length())).trim());
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
