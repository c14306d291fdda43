package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.testing.FrameCompare;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.FrameLayout;

/**
 * Real LeRobot AV1 episodes (shared/datasets/g1-v21-sample) decode frame-exactly: every 17th frame,
 * asked for in shuffled order, is within the tolerance of its ffmpeg CLI reference and closer to it
 * than to the references of the frames just before and after it, so an off-by-one fails even where
 * the camera barely moves. The footage repeats some frames (a neighbour's reference equals the
 * frame's own, byte for byte): no picture comparison can tell those apart, so there the frame index
 * and pts the decoder reports decide, and the test says so. Skipped with a warning where the shared
 * dataset is missing.
 */
@ExtendWith(NativeLeakCheck.class)
class RealDatasetVideoTest {
  static final int STEP = 17;

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4})
  void everySeventeenthFrameShuffledIsItsReferenceNotANeighbour(int episode) {
    Path file =
        Fixtures.sharedDataset()
            .resolve(
                String.format(
                    "videos/chunk-000/observation.images.cam_high/episode_%06d.mp4", episode));
    double[] refPts = FfmpegReference.framePts(file);
    byte[] ref = FfmpegReference.framesAroundEveryNthRgb(file, STEP);
    int[] slotOf = new int[refPts.length];
    int slots = 0;
    for (int n = 0; n < refPts.length; n++) {
      slotOf[n] = FfmpegReference.isAroundAMultiple(n, STEP) ? slots++ : -1;
    }
    try (Decoder d = Decoder.open(file)) {
      assertEquals("av1", d.info().codec());
      assertTrue(d.backendDescription().startsWith("dav1d"), d.backendDescription());
      assertEquals(refPts.length, d.info().frameCount());
      int frameBytes = d.info().width() * d.info().height() * 3;
      assertEquals((long) slots * frameBytes, ref.length, "reference frames");
      List<Integer> frames = new ArrayList<>();
      for (int f = 0; f < refPts.length; f += STEP) {
        frames.add(f);
      }
      Collections.shuffle(frames, new Random(episode));

      HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
      int neighbourChecks = 0;
      List<String> repeated = new ArrayList<>();
      for (int f : frames) {
        DecodeResult r = d.decode(new double[] {refPts[f]}, one);
        assertEquals(f, r.frameIndex(0));
        assertEquals(refPts[f], r.ptsSeconds(0), 1e-6);
        byte[] got = one.frameBytes(0);
        double own = FrameCompare.meanAbsDiff(got, ref, slotOf[f] * frameBytes);
        assertTrue(
            own <= FrameExactnessTest.MEAN_TOLERANCE,
            "episode " + episode + " frame " + f + ": mean diff " + own);
        for (int g : new int[] {f - 1, f + 1}) {
          if (g < 0 || g >= refPts.length) {
            continue;
          }
          if (sameFrame(ref, slotOf[f], slotOf[g], frameBytes)) {
            repeated.add(f + "=" + g);
            continue;
          }
          double other = FrameCompare.meanAbsDiff(got, ref, slotOf[g] * frameBytes);
          assertTrue(
              own < other,
              "episode "
                  + episode
                  + " frame "
                  + f
                  + " is as close to frame "
                  + g
                  + " ("
                  + other
                  + ") as to its own reference ("
                  + own
                  + ")");
          neighbourChecks++;
        }
      }
      if (!repeated.isEmpty()) {
        System.out.println(
            "episode "
                + episode
                + ": the footage repeats frames "
                + repeated
                + " byte for byte; for these neighbours only the reported frame index and pts"
                + " were checked");
      }
      assertTrue(
          neighbourChecks >= frames.size(),
          "too few frames differ from their neighbours to check: " + neighbourChecks);
    }
  }

  private static boolean sameFrame(byte[] frames, int a, int b, int frameBytes) {
    return Arrays.equals(
        frames, a * frameBytes, (a + 1) * frameBytes, frames, b * frameBytes, (b + 1) * frameBytes);
  }
}
