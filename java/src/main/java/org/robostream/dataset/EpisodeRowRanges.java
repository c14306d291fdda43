package org.robostream.dataset;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Where each episode's rows are in a data file, from its {@code episode_index} column: the column
 * must be of an integer type without nulls, and each episode's rows must be contiguous. Fed one
 * record batch after the other ({@link #add}), so a whole file need not be in memory. Not
 * thread-safe.
 */
public final class EpisodeRowRanges {
  public static final String COLUMN = "episode_index";

  private final String file;
  private final Map<Integer, int[]> ranges = new LinkedHashMap<>();
  private int rows;
  private int current = -1;
  private int start;

  public EpisodeRowRanges(String file) {
    this.file = file;
  }

  /** Ranges of a whole column. */
  public static EpisodeRowRanges of(FieldVector column, String file) {
    EpisodeRowRanges r = new EpisodeRowRanges(file);
    r.add(column);
    return r;
  }

  /** Appends the next rows of the file's {@code episode_index} column. */
  public void add(FieldVector column) {
    if (!(column instanceof BaseIntVector values)) {
      throw ArrowCells.wrongType(column, file, "int64 (an integer column)");
    }
    for (int i = 0; i < column.getValueCount(); i++, rows++) {
      if (column.isNull(i)) {
        throw new DatasetException.BadMetadata(file, "null in column " + COLUMN + " row " + rows);
      }
      long episode = values.getValueAsLong(i);
      if (episode != current) {
        if (episode < 0 || episode > Integer.MAX_VALUE) {
          throw new DatasetException.BadMetadata(
              file,
              "row "
                  + rows
                  + " has "
                  + COLUMN
                  + " "
                  + episode
                  + ", outside 0.."
                  + Integer.MAX_VALUE);
        }
        close();
        current = (int) episode;
        start = rows;
        if (ranges.containsKey(current)) {
          throw new DatasetException.BadMetadata(
              file,
              "rows of episode " + current + " are not contiguous (again at row " + rows + ")");
        }
      }
    }
  }

  /** Episode index to [first row, end row), in file order. */
  public Map<Integer, int[]> ranges() {
    close();
    return Collections.unmodifiableMap(ranges);
  }

  private void close() {
    if (current >= 0) {
      ranges.put(current, new int[] {start, rows});
    }
  }
}
