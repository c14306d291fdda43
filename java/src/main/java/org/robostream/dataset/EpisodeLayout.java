package org.robostream.dataset;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Places the table's episodes in their video files and checks the table agrees with itself, before
 * any frame is read. LeRobot writers append a file's episodes in episode order, each {@code length
 * / fps} long, so the k-th starts at {@code offset / fps} (within half a frame, or up to {@link
 * VideoSpan#APPEND_SHIFT_SECONDS} per earlier episode late). {@code to_timestamp} is the end or the
 * last frame's time ({@link ToTimestamp}); a span keeping the minority convention is refused, since
 * a length one frame off would pass otherwise.
 *
 * <p>Swapped, overlapping or gapped spans, or an episode pointing back to an earlier file, would
 * address another episode's frames: refused. Problems are kept, not thrown ({@link
 * Placed#problem()}), so missing files are reported first. Stateless.
 */
final class EpisodeLayout {
  /** Longest episode accepted (6 days at 30 fps): lengths size per-episode frame lists. */
  static final int MAX_EPISODE_FRAMES = 1 << 24;

  private EpisodeLayout() {}

  /**
   * Where a table row puts one camera of its episode: a file (and its chunk and file index, which
   * order a camera's files) and, in v3.0, a time span.
   */
  record Placement(
      Path file, long chunkIndex, long fileIndex, double fromTimestamp, double toTimestamp) {}

  /**
   * The placed episodes, the first disagreement of the table with itself (null when none), and how
   * many rows and camera spans used each {@link ToTimestamp} convention.
   */
  record Placed(
      List<EpisodeInfo> episodes,
      DatasetException problem,
      Map<ToTimestamp, Integer> toTimestamps) {}

  /**
   * One row of an episodes table, its files resolved, not yet placed.
   *
   * @param table the episodes table file holding the row, for messages
   */
  record Row(
      int index,
      int length,
      List<String> tasks,
      long datasetFromIndex,
      Path dataFile,
      Map<String, Placement> videos,
      String table) {}

  /**
   * The episodes, ascending by index, with frame offsets inside their files.
   *
   * @param sharedFiles whether episodes may share a video file (v3.0: from/to timestamps from the
   *     table); in v2.1 every episode has a file of its own starting at 0
   */
  static Placed place(List<Row> rows, DatasetInfo info, boolean sharedFiles) {
    List<Row> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparingInt(Row::index));
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).index() == sorted.get(i - 1).index()) {
        // Not deferred: every later step keys rows by their index.
        throw new DatasetException.BadMetadata(
            sorted.get(i).table(), "episode " + sorted.get(i).index() + " is listed twice");
      }
    }
    Problems problems = new Problems();
    Map<ToTimestamp, Integer> conventions = toTimestampConventions(sorted, info);
    ToTimestamp convention =
        conventions.getOrDefault(ToTimestamp.LAST_FRAME, 0)
                > conventions.getOrDefault(ToTimestamp.END, 0)
            ? ToTimestamp.LAST_FRAME
            : ToTimestamp.END;
    // camera -> {offset, total, episodes before}
    Map<Row, Map<String, int[]>> offsets = new IdentityHashMap<>();
    Map<Path, String> cameraOfFile = new HashMap<>();
    for (String camera : info.videoKeys()) {
      problems.add(() -> requireFilesInEpisodeOrder(camera, sorted));
      Map<Path, List<Row>> byFile = new LinkedHashMap<>();
      for (Row r : sorted) {
        byFile.computeIfAbsent(r.videos().get(camera).file(), f -> new ArrayList<>()).add(r);
      }
      for (Map.Entry<Path, List<Row>> file : byFile.entrySet()) {
        String other = cameraOfFile.putIfAbsent(file.getKey(), camera);
        if (other != null) {
          problems.add(
              new DatasetException.BadMetadata(
                  inFileTable(file.getValue()),
                  "cameras "
                      + other
                      + " and "
                      + camera
                      + " both map to video file "
                      + file.getKey()
                      + " (video_path "
                      + info.videoPath()
                      + ")"));
        }
        List<Row> inFile = file.getValue();
        if (!sharedFiles && inFile.size() > 1) {
          problems.add(
              new DatasetException.BadMetadata(
                  inFile.get(1).table(),
                  "episodes "
                      + inFile.get(0).index()
                      + " and "
                      + inFile.get(1).index()
                      + " both map to video"
                      + " file "
                      + file.getKey()
                      + "; a v2.x episode has a video file of its own"
                      + " (video_path "
                      + info.videoPath()
                      + ")"));
        }
        int total =
            placeInFile(camera, file.getKey(), inFile, info.fps(), offsets, problems, convention);
        for (Row r : inFile) {
          offsets.get(r).get(camera)[1] = total;
        }
      }
    }
    List<EpisodeInfo> episodes = new ArrayList<>(sorted.size());
    for (Row r : sorted) {
      Map<String, VideoSpan> videos = new LinkedHashMap<>();
      for (String camera : info.videoKeys()) {
        Placement p = r.videos().get(camera);
        int[] o = offsets.get(r).get(camera);
        videos.put(
            camera,
            new VideoSpan(
                camera,
                p.file(),
                p.fromTimestamp(),
                end(p, convention, info.fps()),
                o[0],
                o[1],
                o[2]));
      }
      episodes.add(
          new EpisodeInfo(
              r.index(), r.length(), r.tasks(), r.datasetFromIndex(), r.dataFile(), videos));
    }
    return new Placed(episodes, problems.first, Map.copyOf(conventions));
  }

  /** The first problem found; later ones are usually its consequences. */
  private static final class Problems {
    DatasetException first;

    void add(DatasetException p) {
      if (first == null) {
        first = p;
      }
    }

    void add(Runnable check) {
      try {
        check.run();
      } catch (DatasetException p) {
        add(p);
      }
    }
  }

  private static void requireFilesInEpisodeOrder(String camera, List<Row> sorted) {
    for (int i = 1; i < sorted.size(); i++) {
      Placement before = sorted.get(i - 1).videos().get(camera);
      Placement p = sorted.get(i).videos().get(camera);
      if (p.chunkIndex() < before.chunkIndex()
          || (p.chunkIndex() == before.chunkIndex() && p.fileIndex() < before.fileIndex())) {
        Row r = sorted.get(i);
        throw new DatasetException.BadMetadata(
            r.table(),
            "episode "
                + r.index()
                + ": videos/"
                + camera
                + " points back to chunk "
                + p.chunkIndex()
                + " file "
                + p.fileIndex()
                + " after episode "
                + sorted.get(i - 1).index()
                + " in chunk "
                + before.chunkIndex()
                + " file "
                + before.fileIndex()
                + "; a camera's episodes"
                + " are appended to its files in episode order");
      }
    }
  }

  private static String inFileTable(List<Row> inFile) {
    return inFile.get(inFile.size() - 1).table();
  }

  /**
   * Where the span ends: its {@code to_timestamp}, or a frame after it where the table records each
   * episode's last frame there ({@link VideoSpan#toTimestamp()} is always the end).
   */
  private static double end(Placement p, ToTimestamp convention, int fps) {
    return convention == ToTimestamp.LAST_FRAME ? p.toTimestamp() + 1.0 / fps : p.toTimestamp();
  }

  /** How many camera spans of the table keep each {@code to_timestamp} convention. */
  private static Map<ToTimestamp, Integer> toTimestampConventions(
      List<Row> rows, DatasetInfo info) {
    Map<ToTimestamp, Integer> counts = new java.util.EnumMap<>(ToTimestamp.class);
    for (String camera : info.videoKeys()) {
      for (Row r : rows) {
        ToTimestamp c = toTimestampOf(r.videos().get(camera), r.length(), info.fps());
        if (c != null) {
          counts.merge(c, 1, Integer::sum);
        }
      }
    }
    return counts;
  }

  /** The convention {@code p}'s {@code to_timestamp} keeps, or null for neither. */
  private static ToTimestamp toTimestampOf(Placement p, int length, int fps) {
    double end = p.fromTimestamp() + length / (double) fps;
    if (Math.abs(p.toTimestamp() - end) < 0.5 / fps) {
      return ToTimestamp.END;
    }
    if (Math.abs(p.toTimestamp() - (end - 1.0 / fps)) < 0.5 / fps) {
      return ToTimestamp.LAST_FRAME;
    }
    return null;
  }

  /** A problem with episode {@code r}'s span in a file ({@code field}: the column's prefix). */
  private static DatasetException.BadMetadata spanProblem(Row r, String field, String problem) {
    return new DatasetException.BadMetadata(
        r.table(), "episode " + r.index() + ": " + field + problem);
  }

  /**
   * Checks one file's spans against the frames before each and against the table's {@code
   * to_timestamp} convention (problems to {@code problems}); returns the file's frame total.
   */
  private static int placeInFile(
      String camera,
      Path file,
      List<Row> inFile,
      int fps,
      Map<Row, Map<String, int[]>> offsets,
      Problems problems,
      ToTimestamp convention) {
    double halfFrame = 0.5 / fps;
    String field = "videos/" + camera + "/";
    long offset = 0;
    for (int k = 0; k < inFile.size(); k++) {
      Row r = inFile.get(k);
      Placement p = r.videos().get(camera);
      double from = offset / (double) fps;
      // Late by up to 1 ms per episode before it: LeRobot's concatenation shift, should a writer
      // record it in the table (a swap still makes one of the two episodes early).
      double late = halfFrame + k * VideoSpan.APPEND_SHIFT_SECONDS;
      double shift = p.fromTimestamp() - from;
      if (!(shift > -halfFrame && shift < late)) {
        problems.add(
            spanProblem(
                r,
                field,
                "from_timestamp is "
                    + p.fromTimestamp()
                    + " s, but in "
                    + file
                    + " "
                    + (k == 0
                        ? "it is the first episode (by episode index), which starts at 0 s"
                        : "the "
                            + k
                            + " episodes stored before it (by episode index, "
                            + inFile.get(0).index()
                            + " to "
                            + inFile.get(k - 1).index()
                            + ") hold "
                            + offset
                            + " frames, which end at "
                            + from
                            + " s at "
                            + fps
                            + " fps")
                    + "; a file's episodes follow each other in episode order, without gaps or"
                    + " overlaps"));
      }
      if (toTimestampOf(p, r.length(), fps) != convention) {
        double end = p.fromTimestamp() + r.length() / (double) fps;
        double lastFrame = end - 1.0 / fps;
        problems.add(
            spanProblem(
                r,
                field,
                "to_timestamp is "
                    + p.toTimestamp()
                    + " s, but its length of "
                    + r.length()
                    + " frames at "
                    + fps
                    + " fps, from "
                    + p.fromTimestamp()
                    + " s in "
                    + file
                    + ", "
                    + (convention == ToTimestamp.END
                        ? "ends it at " + end + " s"
                        : "puts its last frame at " + lastFrame + " s")
                    + " (this table's to_timestamp marks each episode's "
                    + (convention == ToTimestamp.END ? "end" : "last frame")
                    + "); a length that does not fill its span leaves the frames of the episodes"
                    + " after it in doubt"));
      }
      offsets.computeIfAbsent(r, x -> new HashMap<>()).put(camera, new int[] {(int) offset, 0, k});
      offset += r.length();
      if (offset > Integer.MAX_VALUE) {
        throw new DatasetException.BadMetadata( // not deferred: offsets would overflow
            r.table(),
            "the episodes in " + file + " hold more than " + Integer.MAX_VALUE + " frames");
      }
    }
    return (int) offset;
  }
}
