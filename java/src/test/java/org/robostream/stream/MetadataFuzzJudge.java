package org.robostream.stream;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.robostream.FileException;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.synth.PatternCode;
import org.robostream.video.FrameLayout;

/**
 * Streams one mutated dataset and says what happened: a typed error naming a file (when the stream
 * is built, or while it runs), or an exact epoch, where every sample, in the natural order the
 * metadata gives (episodes ascending, frames 0..length-1), shows in every camera's frame the
 * painted (episode, frame, camera) that its rows and its place in that order name. Anything else is
 * a failure: an untyped exception or one that hides a programming error in its causes, an error
 * without a file, a wrong, missing or repeated frame. Stateless.
 */
final class MetadataFuzzJudge {
  private MetadataFuzzJudge() {}

  enum Outcome {
    TYPED_AT_BUILD,
    TYPED_WHILE_STREAMING,
    EXACT
  }

  /** What a case gave; {@code failure} is null unless the case fails the test. */
  record Verdict(Outcome outcome, String failure) {}

  /** Exceptions that are programming errors wherever they appear, also as causes. */
  private static final Set<Class<? extends Throwable>> BUGS =
      Set.of(
          NullPointerException.class,
          IllegalArgumentException.class,
          IllegalStateException.class,
          ClassCastException.class,
          IndexOutOfBoundsException.class,
          ArithmeticException.class,
          NegativeArraySizeException.class,
          UnsupportedOperationException.class,
          Error.class);

  /**
   * @param seedCameras the seed's cameras in order: camera k of the seed paints k
   */
  static Verdict judge(Path root, List<String> seedCameras) {
    StreamingDataset ds;
    try {
      ds =
          StreamingDataset.builder(root)
              .batchSize(8)
              .shuffle(false)
              .returnUint8(true)
              .layout(FrameLayout.HWC)
              .build();
    } catch (Throwable t) {
      return typed(t, Outcome.TYPED_AT_BUILD);
    }
    try (ds) {
      List<long[]> expected = new ArrayList<>(); // {episode, frame} in natural order
      for (EpisodeInfo e : ds.metadata().episodes()) {
        for (int f = 0; f < e.length(); f++) {
          expected.add(new long[] {e.index(), f});
        }
      }
      List<String> cameras = ds.metadata().info().videoKeys();
      int next = 0;
      for (Batch b : ds) {
        try (b) {
          String wrong = check(b, cameras, seedCameras, expected, next);
          if (wrong != null) {
            return new Verdict(Outcome.EXACT, wrong);
          }
          next += b.size();
        }
      }
      if (next != expected.size()) {
        return new Verdict(Outcome.EXACT, "delivered " + next + " samples of " + expected.size());
      }
      return new Verdict(Outcome.EXACT, null);
    } catch (Throwable t) {
      return typed(t, Outcome.TYPED_WHILE_STREAMING);
    }
  }

  /** The first wrong sample of a batch, or null. */
  private static String check(
      Batch b, List<String> cameras, List<String> seedCameras, List<long[]> expected, int first) {
    List<String> columns = b.columnNames();
    long[] episodes = columns.contains("episode_index") ? b.longs("episode_index") : null;
    long[] frames = columns.contains("frame_index") ? b.longs("frame_index") : null;
    for (int i = 0; i < b.size(); i++) {
      if (first + i >= expected.size()) {
        return "sample " + (first + i) + " is more than the metadata's " + expected.size();
      }
      long[] want = expected.get(first + i);
      if ((episodes != null && episodes[i] != want[0])
          || (frames != null && frames[i] != want[1])) {
        return "sample "
            + (first + i)
            + " has rows of episode "
            + (episodes == null ? "?" : episodes[i])
            + " frame "
            + (frames == null ? "?" : frames[i])
            + ", expected episode "
            + want[0]
            + " frame "
            + want[1];
      }
      for (String camera : cameras) {
        int[] shape = b.frameShape(camera);
        PatternCode.Identity painted =
            PatternCode.read(b.frames(camera).sample(i), shape[2], shape[1], false);
        PatternCode.Identity truth =
            new PatternCode.Identity((int) want[0], (int) want[1], seedCameras.indexOf(camera));
        if (!truth.equals(painted)) {
          return "sample "
              + (first + i)
              + " (episode "
              + want[0]
              + " frame "
              + want[1]
              + ") "
              + camera
              + " shows "
              + painted;
        }
      }
    }
    return null;
  }

  private static Verdict typed(Throwable t, Outcome when) {
    if (!(t instanceof FileException fe)
        || fe.file() == null
        || fe.file().isBlank()
        || !t.getMessage().contains(fe.file())) {
      return new Verdict(when, "not a typed error naming a file: " + describe(t));
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      for (Class<? extends Throwable> bug : BUGS) {
        if (bug.isInstance(c)) {
          return new Verdict(when, "a " + c.getClass().getSimpleName() + " inside: " + describe(t));
        }
      }
    }
    return new Verdict(when, null);
  }

  private static String describe(Throwable t) {
    java.io.StringWriter trace = new java.io.StringWriter();
    t.printStackTrace(new java.io.PrintWriter(trace));
    String s = trace.toString();
    return s.length() > 3000 ? s.substring(0, 3000) + "..." : s;
  }
}
