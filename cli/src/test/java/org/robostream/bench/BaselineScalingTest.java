package org.robostream.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.robostream.codec.Decoder;
import org.robostream.testing.Fixtures;
import org.robostream.video.FrameLayout;

/**
 * The decoding baselines give the reference as many cores as the loader has workers: one file runs
 * on one thread (one ffmpeg process) whatever the parallelism, so for two workers the baselines
 * credit it with two (perfect scaling, the most it could do), and a loader using two cores is not
 * compared with a reference using one. Checked on the runs' accounting (frames, seconds, the
 * scaling applied), not on timings: a ratio of two timed runs depends on what else the machine does
 * (under a load of 15 on 2 cores, one run alone was up to 1.7x slower than the pair).
 */
class BaselineScalingTest {
  private static final Path FILE = Fixtures.video("av1_g2.mp4");

  @Test
  void perfectScalingCreditsTheThreadsThatHadNoFileOfTheirOwn() {
    assertEquals(2.0, DatasetVideos.perfectScaling(2, 1));
    assertEquals(1.0, DatasetVideos.perfectScaling(2, 2));
    assertEquals(1.0, DatasetVideos.perfectScaling(2, 5));
    assertEquals(4.0 / 3.0, DatasetVideos.perfectScaling(4, 3));
    assertEquals(1.0, DatasetVideos.perfectScaling(0, 0));
  }

  @Test
  void theFfmpegCliBaselineOfOneFileForTwoWorkersCountsTwoProcesses() throws Exception {
    assertScaledTwice(
        DatasetVideos.ffmpegRun(List.of(FILE), 1), DatasetVideos.ffmpegRun(List.of(FILE), 2));
  }

  @Test
  void theSequentialBaselineOfOneFileForTwoWorkersCountsTwoThreads() throws Exception {
    assertScaledTwice(
        SequentialDecodeBaseline.run(List.of(FILE), 1, FrameLayout.CHW),
        SequentialDecodeBaseline.run(List.of(FILE), 2, FrameLayout.CHW));
  }

  /** Both runs decoded the whole file once; only the two-worker one is credited twice. */
  private static void assertScaledTwice(
      SequentialDecodeBaseline.Result alone, SequentialDecodeBaseline.Result forTwo) {
    long frames;
    try (Decoder d = Decoder.open(FILE)) {
      frames = d.info().frameCount();
    }
    assertEquals(frames, alone.frames());
    assertEquals(frames, forTwo.frames());
    assertEquals(1.0, alone.scaling());
    assertEquals(2.0, forTwo.scaling());
    assertEquals(forTwo.frames() / forTwo.seconds() * 2, forTwo.framesPerSecond(), 1e-9);
  }
}
