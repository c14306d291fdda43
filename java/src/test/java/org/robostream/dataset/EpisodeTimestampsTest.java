package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * How one episode's timestamp column is read when the dataset opens, on each shape a writer gives
 * it (10 rows at 10 fps): the convention, the first row STRICT names, and the frames LeRobot's rule
 * (the frame nearest each timestamp) picks against the rows' own.
 */
class EpisodeTimestampsTest {
  static final int FPS = 10;
  static final int ROWS = 10;

  @Test
  void rowsAtFrameIndexOverFpsNameTheirOwnFramesWithinTheTolerance() {
    EpisodeTimestamps t = read(f -> f / (double) FPS, 1e-4);
    assertEquals(EpisodeTimestamps.Convention.FRAME_START, t.convention());
    assertTrue(t.lerobot().same());
    assertEquals(EpisodeTimestamps.LeRobotChoice.SAME, t.lerobot());
    assertFalse(t.beyondTolerance().present());
  }

  @Test
  void rowsOneFrameLateNameTheNextFrameAndTheLastRowNoneOfTheEpisodes() {
    EpisodeTimestamps t = read(f -> (f + 1) / (double) FPS, 1e-4);
    assertEquals(EpisodeTimestamps.Convention.FRAME_END, t.convention());
    assertEquals(new EpisodeTimestamps.LeRobotChoice(10, 1, 1, 0, 0.1), t.lerobot());
    assertEquals(new EpisodeTimestamps.Row(0, 0.1), t.beyondTolerance());
  }

  @Test
  void recordedRowsCountWhereTheirNearestFrameIsAndTheFarthest() {
    // Rows 0-5 on time, then drifting later: row 6 nearest frame 7, row 9 nearest frame 12.
    double[] stamps = {0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.66, 0.74, 0.95, 1.19};
    EpisodeTimestamps t = read(f -> stamps[f], 0.05);
    assertEquals(EpisodeTimestamps.Convention.RECORDED, t.convention());
    EpisodeTimestamps.LeRobotChoice c = t.lerobot();
    assertEquals(3, c.rowsElsewhere(), "rows 6, 8 and 9 (row 7's nearest is its own)");
    assertEquals(1, c.rowsOutside(), "row 9: frame 12 of a 10-frame episode");
    assertEquals(3, c.maxOffset());
    assertEquals(9, c.maxOffsetRow());
    assertEquals(1.19, c.maxOffsetTimestamp(), 1e-12);
    assertEquals(new EpisodeTimestamps.Row(6, 0.66), t.beyondTolerance(), "0.06 s off");
  }

  @Test
  void aNearestFrameBeforeTheRowsOwnIsANegativeOffset() {
    EpisodeTimestamps t = read(f -> f == 4 ? 0.2 : f / (double) FPS, 1e-4);
    assertEquals(-2, t.lerobot().maxOffset());
    assertEquals(4, t.lerobot().maxOffsetRow());
    assertEquals(0, t.lerobot().rowsOutside());
  }

  @Test
  void aTimestampHalfWayBetweenTwoFramesNamesTheEarlierAsLeRobotsArgminDoes() {
    EpisodeTimestamps t = read(f -> f == 3 ? 0.25 : f / (double) FPS, 1e-4);
    assertEquals(1, t.lerobot().rowsElsewhere(), "row 3 at 0.25 s: frame 2, not 3");
    assertEquals(-1, t.lerobot().maxOffset());
  }

  @Test
  void theFirstRowAtTheToleranceOrMoreIsTheOneStrictNames() {
    IntToDoubleFunction stamps = f -> f / (double) FPS + (f == 2 ? 1e-5 : f == 7 ? 2e-4 : 0);
    assertEquals(new EpisodeTimestamps.Row(7, 0.7 + 2e-4), read(stamps, 1e-4).beyondTolerance());
    assertFalse(read(stamps, 3e-4).beyondTolerance().present());
    assertEquals(2, read(stamps, 0.5e-5).beyondTolerance().row());
  }

  @Test
  void rowTimestampsAreKeptOnlyWhenAsked() {
    EpisodeTimestamps.Accumulator kept = accumulate(f -> f * 0.1 + 0.01, 1e-4, true);
    assertArrayEquals(
        new double[] {0.01, 0.11, 0.21, 0.31, 0.41, 0.51, 0.61, 0.71, 0.81, 0.91},
        kept.rows(),
        1e-12);
    assertNull(accumulate(f -> f * 0.1, 1e-4, false).rows());
  }

  private static EpisodeTimestamps read(IntToDoubleFunction stamps, double tolerance) {
    return accumulate(stamps, tolerance, false).result();
  }

  private static EpisodeTimestamps.Accumulator accumulate(
      IntToDoubleFunction stamps, double tolerance, boolean keep) {
    EpisodeTimestamps.Accumulator a =
        new EpisodeTimestamps.Accumulator(3, FPS, ROWS, tolerance, keep);
    for (int f = 0; f < ROWS; f++) {
      a.add(f, stamps.applyAsDouble(f));
    }
    return a;
  }
}
