package org.robostream.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.robostream.testing.Fixtures;
import org.robostream.video.FrameLayout;

/**
 * The decoding baselines give the reference as many cores as the loader has workers: one file runs
 * on one thread (one ffmpeg process) whatever the parallelism, so for two workers the baselines
 * credit it with two (perfect scaling, the most it could do), and a loader using two cores is not
 * compared with a reference using one. Best of 3: start-up times vary.
 */
class BaselineScalingTest {
  private static final List<Path> ONE_FILE = List.of(Fixtures.video("av1_g2.mp4"));

  @Test
  void theFfmpegCliBaselineOfOneFileForTwoWorkersCountsTwoProcesses() throws Exception {
    double alone = 0;
    double forTwo = 0;
    for (int run = 0; run < 3; run++) {
      alone = Math.max(alone, DatasetVideos.ffmpegFramesPerSecond(ONE_FILE, 1));
      forTwo = Math.max(forTwo, DatasetVideos.ffmpegFramesPerSecond(ONE_FILE, 2));
    }
    assertScaledTwice(forTwo / alone);
  }

  @Test
  void theSequentialBaselineOfOneFileForTwoWorkersCountsTwoThreads() throws Exception {
    double alone = 0;
    double forTwo = 0;
    for (int run = 0; run < 3; run++) {
      alone =
          Math.max(
              alone, SequentialDecodeBaseline.run(ONE_FILE, 1, FrameLayout.CHW).framesPerSecond());
      forTwo =
          Math.max(
              forTwo, SequentialDecodeBaseline.run(ONE_FILE, 2, FrameLayout.CHW).framesPerSecond());
    }
    assertScaledTwice(forTwo / alone);
  }

  private static void assertScaledTwice(double scale) {
    assertTrue(scale > 1.5 && scale < 2.7, "two workers / one: " + scale);
  }
}
