package org.robostream.dataset;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * Checks the index columns of a data file's rows when the dataset is opened, one record batch after
 * the other: row {@code f} of an episode (its f-th row in the file) must have {@code frame_index f}
 * and {@code index dataset_from_index + f}, and a finite {@code timestamp}, whose convention is
 * classified per episode ({@link EpisodeTimestamps}). Columns info.json does not declare are not
 * read, and their checks skipped. Rows of episodes the table does not put in this file are left to
 * {@link EpisodeRowRanges}' report. A row's problem is kept, not thrown ({@link #problem()}): the
 * caller reports a wrong row count first, which explains it (a deleted row shifts every frame index
 * after it). Not thread-safe: one per file scan.
 */
final class EpisodeRowChecks {
  static final String FRAME_INDEX = "frame_index";
  static final String INDEX = "index";
  static final String TIMESTAMP = "timestamp";
  static final String TASK_INDEX = "task_index";

  private final String file;
  private final int fps;
  private final Map<Integer, EpisodeInfo> expected;
  private final java.util.Set<Integer> kept;
  private final java.util.Set<Integer> tasks;
  private final String tasksSource;
  private final double tolerance;
  private final boolean keepRows;
  private final Map<Integer, int[]> rowsSeen = new HashMap<>();
  private final Map<Integer, EpisodeTimestamps.Accumulator> timestamps = new LinkedHashMap<>();
  private DatasetException.BadMetadata problem;

  /**
   * @param expected the episodes the table puts in this file, by index
   * @param kept the episodes streamed: only their rows are checked (a selection leaves a bad row of
   *     another episode of a shared file out, as it leaves out that episode's frames)
   * @param tasks the task indices the tasks table lists, which every row's {@code task_index} must
   *     be one of
   * @param tasksSource the tasks table, for messages
   * @param tolerance how far a timestamp may be from {@code frame_index / fps} before {@link
   *     TimestampRule#STRICT} names its row ({@link EpisodeTimestamps#beyondTolerance})
   * @param keepRows whether to keep every kept row's timestamp ({@link #rowTimestamps()}), which
   *     {@link TimestampRule#LEROBOT} picks frames by
   */
  EpisodeRowChecks(
      String file,
      int fps,
      Map<Integer, EpisodeInfo> expected,
      java.util.Set<Integer> kept,
      java.util.Set<Integer> tasks,
      String tasksSource,
      double tolerance,
      boolean keepRows) {
    this.file = file;
    this.fps = fps;
    this.expected = expected;
    this.kept = kept;
    this.tasks = tasks;
    this.tasksSource = tasksSource;
    this.tolerance = tolerance;
    this.keepRows = keepRows;
  }

  /** The index columns of {@code columns} (the file's) that info.json declares: the ones read. */
  static List<String> columnsToRead(DatasetInfo info, List<String> columns) {
    return List.of(FRAME_INDEX, INDEX, TIMESTAMP, TASK_INDEX).stream()
        .filter(c -> info.features().containsKey(c) && columns.contains(c))
        .toList();
  }

  /** Checks the next rows of the file ({@code episode_index} and the columns read). */
  void add(VectorSchemaRoot batch) {
    FieldVector episodes = batch.getVector(EpisodeRowRanges.COLUMN);
    if (!(episodes instanceof BaseIntVector episodeValues)) {
      return; // EpisodeRowRanges names the column's type
    }
    BaseIntVector frameIndex = integers(batch.getVector(FRAME_INDEX));
    BaseIntVector index = integers(batch.getVector(INDEX));
    BaseIntVector taskIndex = integers(batch.getVector(TASK_INDEX));
    FieldVector timestamp = batch.getVector(TIMESTAMP);
    requireSeconds(timestamp);
    for (int i = 0; i < batch.getRowCount() && problem == null; i++) {
      if (episodes.isNull(i)) {
        return; // EpisodeRowRanges names the row
      }
      long e = episodeValues.getValueAsLong(i);
      EpisodeInfo info = e < 0 || e > Integer.MAX_VALUE ? null : expected.get((int) e);
      if (info == null) {
        continue;
      }
      int f = rowsSeen.computeIfAbsent(info.index(), k -> new int[1])[0]++;
      if (f >= info.length() || !kept.contains(info.index())) {
        continue; // too many rows: EpisodeRowRanges counts them; not streamed: not read
      }
      String row = "episode " + info.index() + " row " + f;
      if (frameIndex != null) {
        long v = whole(frameIndex, i, FRAME_INDEX, row);
        if (v != f) {
          problem =
              new DatasetException.BadMetadata(
                  file, row + " has frame_index " + v + " (rows must be frames 0..n-1)");
          return;
        }
      }
      if (index != null) {
        long v = whole(index, i, INDEX, row);
        if (v != info.datasetFromIndex() + f) {
          problem =
              new DatasetException.BadMetadata(
                  file,
                  row
                      + " has index "
                      + v
                      + " but the episodes table's dataset_from_index "
                      + info.datasetFromIndex()
                      + " puts it at "
                      + (info.datasetFromIndex() + f));
          return;
        }
      }
      if (taskIndex != null) {
        long t = whole(taskIndex, i, TASK_INDEX, row);
        if (t < 0 || t > Integer.MAX_VALUE || !tasks.contains((int) t)) {
          problem =
              new DatasetException.BadMetadata(
                  file,
                  row
                      + " has task_index "
                      + t
                      + ", which "
                      + tasksSource
                      + " does not list ("
                      + tasks.size()
                      + " tasks)");
          return;
        }
      }
      if (timestamp != null) {
        double seconds = seconds(timestamp, i, row);
        timestamps.computeIfAbsent(info.index(), k -> accumulator(info)).add(f, seconds);
      }
    }
  }

  /** The first row that is not its frame (frame_index, index or timestamp), or null. */
  DatasetException.BadMetadata problem() {
    return problem;
  }

  /** Every episode of the file seen so far, classified (without a timestamp column: NONE). */
  Map<Integer, EpisodeTimestamps> timestamps() {
    Map<Integer, EpisodeTimestamps> out = new LinkedHashMap<>();
    for (Integer e : rowsSeen.keySet()) {
      if (!kept.contains(e)) {
        continue;
      }
      EpisodeTimestamps.Accumulator a = timestamps.get(e);
      out.put(e, (a != null ? a : accumulator(expected.get(e))).result());
    }
    return out;
  }

  /**
   * Every kept episode's row timestamps, by episode (kept only when asked, and only for episodes
   * whose rows have timestamps).
   */
  Map<Integer, double[]> rowTimestamps() {
    Map<Integer, double[]> out = new LinkedHashMap<>();
    timestamps.forEach(
        (e, a) -> {
          if (a.rows() != null) {
            out.put(e, a.rows());
          }
        });
    return out;
  }

  private EpisodeTimestamps.Accumulator accumulator(EpisodeInfo e) {
    return new EpisodeTimestamps.Accumulator(e.index(), fps, e.length(), tolerance, keepRows);
  }

  private BaseIntVector integers(FieldVector v) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof BaseIntVector ints)) {
      throw ArrowCells.wrongType(v, file, "int64 (an integer column)");
    }
    return ints;
  }

  private long whole(BaseIntVector v, int i, String column, String row) {
    if (((FieldVector) v).isNull(i)) {
      throw new DatasetException.BadMetadata(file, row + " has no " + column + " (null)");
    }
    return v.getValueAsLong(i);
  }

  private void requireSeconds(FieldVector v) {
    FieldVector values = elements(v);
    if (values != null
        && !(values instanceof Float4Vector)
        && !(values instanceof Float8Vector)
        && !(values instanceof BaseIntVector)) { // whole seconds cast, as declared floats are
      throw new DatasetException.BadMetadata(
          file,
          "column timestamp is "
              + v.getField().getType()
              + "; expected float32 or float64 seconds");
    }
  }

  /** A plain column's vector, or the values of a one-element list column. */
  private static FieldVector elements(FieldVector v) {
    if (v instanceof FixedSizeListVector f) {
      return f.getDataVector();
    }
    if (v instanceof ListVector l) {
      return l.getDataVector();
    }
    return v;
  }

  private double seconds(FieldVector v, int i, String row) {
    FieldVector values = elements(v);
    int at = i;
    if (v instanceof FixedSizeListVector f) {
      at = i * f.getListSize();
    } else if (v instanceof ListVector l) {
      at = l.getElementStartIndex(i);
      if (l.getElementEndIndex(i) <= at) {
        throw new DatasetException.BadMetadata(file, row + " has an empty timestamp");
      }
    }
    if (v.isNull(i) || values.isNull(at)) {
      throw new DatasetException.BadMetadata(file, row + " has no timestamp (null)");
    }
    double s =
        values instanceof Float4Vector f4
            ? f4.get(at)
            : values instanceof Float8Vector f8
                ? f8.get(at)
                : ((BaseIntVector) values).getValueAsLong(at);
    if (!Double.isFinite(s)) {
      throw new DatasetException.BadMetadata(
          file, row + " has timestamp " + s + "; a timestamp is a finite number of seconds");
    }
    return s;
  }
}
