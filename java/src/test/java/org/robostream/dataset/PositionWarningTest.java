package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The one warning {@link TimestampRule#POSITION} gives where LeRobot's rule picks other frames: one
 * sentence per shape (one frame late, as recorded) in one warning, the episodes as ranges, the rule
 * that gives LeRobot's frames; nothing under the other rules, without video cameras, or where every
 * row names its own frame.
 */
class PositionWarningTest {
  static final int FPS = 10;

  @Test
  void oneWarningSaysBothShapesWithTheirEpisodes() {
    Map<Integer, EpisodeTimestamps> episodes = new TreeMap<>();
    for (int e : new int[] {0, 1, 2, 5}) {
      episodes.put(e, episode(e, f -> (f + 1) / (double) FPS));
    }
    episodes.put(3, episode(3, f -> f / (double) FPS));
    episodes.put(7, episode(7, f -> f == 4 ? 0.72 : f / (double) FPS));
    List<String> warnings = report(episodes, TimestampRule.POSITION, true).warnings();
    assertEquals(1, warnings.size());
    assertEquals(
        "timestamps position (the default) shows row k of an episode with frame k of its video,"
            + " but LeRobot picks the frame nearest each row's timestamp, and here that is another"
            + " frame. Rows stamped one frame late ((frame_index + 1) / fps) in 4 of 6 episodes"
            + " (0-2,5): LeRobot would show frame k+1 for row k, and fail on each episode's last"
            + " row. Rows as recorded in 1 of 6 episodes (7): LeRobot would show another frame on"
            + " 1 row, up to 3 frames after the row's own (episode 7 row 4, timestamp 0.720 s,"
            + " frame_index / fps 0.400 s). For LeRobot's frames: timestamps=\"lerobot\" (Python),"
            + " TimestampRule.LEROBOT (Java), --timestamps lerobot (CLI).",
        warnings.get(0));
  }

  @Test
  void nothingIsSaidWhereLeRobotsFramesAreTheRowsOwnOrNoVideoIsRead() {
    Map<Integer, EpisodeTimestamps> regular = Map.of(0, episode(0, f -> f / (double) FPS));
    assertEquals(List.of(), report(regular, TimestampRule.POSITION, true).warnings());
    Map<Integer, EpisodeTimestamps> late = Map.of(0, episode(0, f -> (f + 1) / (double) FPS));
    assertEquals(1, report(late, TimestampRule.POSITION, true).warnings().size());
    assertEquals(List.of(), report(late, TimestampRule.POSITION, false).warnings(), "no video");
    assertEquals(List.of(), report(late, TimestampRule.LEROBOT, true).warnings());
    assertEquals(List.of(), TimestampReport.NONE.warnings());
  }

  @Test
  void manyScatteredEpisodesAreListedAsTheirFirstRangesAndACount() {
    List<Integer> episodes = new ArrayList<>();
    for (int e = 0; e < 40; e += 2) {
      episodes.add(e);
    }
    episodes.add(41);
    episodes.add(42);
    assertEquals("0,2,4,6,8,10,12,14,16,18,20,22 and 10 more", PositionWarning.ranges(episodes));
    assertEquals("0-4,7", PositionWarning.ranges(List.of(0, 1, 2, 3, 4, 7)));
  }

  @Test
  void rowTimestampsAreTheReportsOnlyWhereKept() {
    TimestampReport kept =
        new TimestampReport(
            Map.of(0, episode(0, f -> f / (double) FPS)),
            FPS,
            TimestampRule.LEROBOT,
            true,
            Map.of(0, new double[] {0.5, 0.6}));
    double[] rows = kept.rowTimestamps(0);
    rows[0] = 9;
    assertEquals(0.5, kept.rowTimestamps(0)[0], "a copy");
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> report(Map.of(), TimestampRule.POSITION, true).rowTimestamps(0));
    assertTrue(e.getMessage().contains("kept under TimestampRule.LEROBOT only"), e.getMessage());
  }

  private static TimestampReport report(
      Map<Integer, EpisodeTimestamps> episodes, TimestampRule rule, boolean videos) {
    return new TimestampReport(episodes, FPS, rule, videos, Map.of());
  }

  /** Episode {@code e} of 10 rows stamped {@code stamps}. */
  private static EpisodeTimestamps episode(int e, IntToDoubleFunction stamps) {
    EpisodeTimestamps.Accumulator a = new EpisodeTimestamps.Accumulator(e, FPS, 10, 1e-4, false);
    for (int f = 0; f < 10; f++) {
      a.add(f, stamps.applyAsDouble(f));
    }
    return a.result();
  }
}
