package org.robostream.stream;

import java.util.LinkedHashMap;
import java.util.Map;

/** The declared columns of one episode's rows, row i = frame i. Immutable. */
record EpisodeRows(int episode, int length, Map<String, ColumnValues> columns) {
  EpisodeRows {
    columns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(columns));
  }

  ColumnValues column(String name) {
    return columns.get(name);
  }
}
