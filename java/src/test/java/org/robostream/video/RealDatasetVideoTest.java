package org.robostream.video;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

/** Real LeRobot AV1 episodes (shared/datasets/g1-v21-sample) decode frame-exactly. */
@ExtendWith(NativeLeakCheck.class)
class RealDatasetVideoTest {
  static final int STEP = 17;

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4})
  void everySeventeenthFrameShuffledMatchesTheReference(int episode) {
    Path file = Fixtures.sharedDataset().resolve(String.format(
        "videos/chunk-000/observation.images.cam_high/episode_%06d.mp4", episode));
    assumeTrue(Files.isRegularFile(file), "shared dataset not present: " + file);
    double[] refPts = FfmpegReference.framePts(file);
    byte[] ref = FfmpegReference.everyNthFrameRgb(file, STEP);
    try (VideoDecoder d = VideoDecoder.open(file)) {
      assertEquals("av1", d.info().codec());
      assertTrue(d.backendDescription().startsWith("dav1d"), d.backendDescription());
      assertEquals(refPts.length, d.info().frameCount());
      int frameBytes = d.info().width() * d.info().height() * 3;
      List<Integer> frames = new ArrayList<>();
      for (int f = 0; f < refPts.length; f += STEP) {
        frames.add(f);
      }
      assertEquals(ref.length / frameBytes, frames.size());
      Collections.shuffle(frames, new Random(episode));
      HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
      for (int f : frames) {
        DecodeResult r = d.decode(new double[] {refPts[f]}, one);
        assertEquals(f, r.frameIndex(0));
        int slot = f / STEP;
        double diff = FrameCompare.meanAbsDiff(one.frameBytes(0), ref, slot * frameBytes);
        assertTrue(diff <= 1.5, "episode " + episode + " frame " + f + ": mean diff " + diff);
        if (slot + 1 < frames.size()) {
          assertTrue(diff < FrameCompare.meanAbsDiff(one.frameBytes(0), ref,
              (slot + 1) * frameBytes), "frame " + f + " is not closer to its own reference");
        }
      }
    }
  }
}
