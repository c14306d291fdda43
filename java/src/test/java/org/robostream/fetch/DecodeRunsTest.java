package org.robostream.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DecodeRunsTest {
  private static final int[] FRAMES = IntStream.range(0, 200).toArray();

  private static boolean gop30(int frame) {
    return frame % 30 == 0;
  }

  @Test
  void runsEndBeforeTheNextKeyframeOncePastTheMinimum() {
    assertEquals(30, DecodeRuns.length(FRAMES, 0, 16, 64, n -> true, DecodeRunsTest::gop30));
    assertEquals(30, DecodeRuns.length(FRAMES, 30, 16, 64, n -> true, DecodeRunsTest::gop30));
    // Starting mid-GOP, a keyframe within the minimum does not end the run; the next one does.
    assertEquals(35, DecodeRuns.length(FRAMES, 25, 16, 64, n -> true, DecodeRunsTest::gop30));
    // A GOP longer than the maximum: capped.
    assertEquals(64, DecodeRuns.length(FRAMES, 0, 16, 64, n -> true, f -> f % 250 == 0));
  }

  @Test
  void fixedRunsNeverAskAboutGops() {
    assertEquals(
        8,
        DecodeRuns.length(
            FRAMES,
            3,
            8,
            8,
            n -> true,
            f -> {
              throw new AssertionError("asked about frame " + f);
            }));
  }

  @Test
  void budgetDecodedFramesAndTheStreamEndStopARun() {
    assertEquals(5, DecodeRuns.length(FRAMES, 0, 16, 64, n -> n < 5, DecodeRunsTest::gop30));
    assertEquals(0, DecodeRuns.length(FRAMES, 0, 16, 64, n -> false, DecodeRunsTest::gop30));
    assertEquals(10, DecodeRuns.length(FRAMES, 190, 16, 64, n -> true, f -> false));
    int[] piece = {4, 5, 6, 90, 91}; // a resumed stream's remaining frames
    assertEquals(5, DecodeRuns.length(piece, 0, 2, 64, n -> true, f -> false));
    assertEquals(3, DecodeRuns.length(piece, 0, 2, 64, n -> true, f -> f == 90));
  }
}
