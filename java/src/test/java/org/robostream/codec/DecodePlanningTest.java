package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.DecodeStats;
import org.robostream.video.FrameLayout;

/** Seeks, continuation and decode amplification of the decode planner. */
@ExtendWith(NativeLeakCheck.class)
class DecodePlanningTest {
  @Test
  void forwardSingleFrameCallsNeverSeek() {
    try (Decoder d = Decoder.open(Fixtures.video("h264_g30.mp4"))) {
      double[] pts = d.framePtsSeconds();
      HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
      for (double t : pts) {
        d.decode(new double[] {t}, one);
      }
      DecodeStats s = d.stats();
      assertEquals(0, s.seeks(), "sequential reading crosses GOPs without seeking");
      assertEquals(pts.length, s.framesDelivered());
      assertEquals(1.0, s.decodeAmplification(), 1e-9);
    }
  }

  @Test
  void continuesInsideTheGopInsteadOfSeeking() {
    try (Decoder d = Decoder.open(Fixtures.video("h264_g250.mp4"))) {
      double[] pts = d.framePtsSeconds();
      HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
      d.decode(new double[] {pts[10]}, one);
      d.decode(new double[] {pts[20]}, one);
      assertEquals(0, d.stats().seeks());
      assertEquals(21, d.stats().framesDecoded(), "frames 0..20 decoded once each");
      d.decode(new double[] {pts[5]}, one); // behind the position: one seek back to the keyframe
      assertEquals(1, d.stats().seeks());
    }
  }

  @Test
  void aSeekLandsOnTheTargetGopsKeyframeInAFileWithBFrames() {
    // H.264 with B-frames: MP4's index times are shifted by the reorder delay, and a seek by the
    // keyframe packet's dts landed on the GOP before (a whole GOP decoded for nothing).
    assertTrue(
        org.robostream.testing.Ffprobe.frames(Fixtures.video("h264_g30.mp4")).stream()
            .anyMatch(f -> f.pictureType().equals("B")),
        "the fixture has B-frames");
    try (Decoder d = Decoder.open(Fixtures.video("h264_g30.mp4"))) {
      HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
      for (int gop : new int[] {5, 2, 8}) {
        long before = d.stats().framesDecoded();
        assertEquals(gop * 30, d.decodeFrames(new int[] {gop * 30 + 3}, one).frameIndex(0) - 3);
        assertEquals(4, d.stats().framesDecoded() - before, "GOP " + gop + ": its frames 0..3");
      }
      assertEquals(3, d.stats().seeks());
    }
  }

  @Test
  void oneCallCostsAtMostOneSeekPerGop() {
    try (Decoder d = Decoder.open(Fixtures.video("h264_g30.mp4"))) {
      double[] pts = d.framePtsSeconds();
      // 12 requests spread over GOPs 2, 5 and 8, shuffled, with duplicates.
      int[] frames = {275 - 20, 62, 155, 61, 62, 250, 154, 67, 156, 65, 251, 60};
      double[] q = new double[frames.length];
      for (int i = 0; i < q.length; i++) {
        q[i] = pts[frames[i]];
      }
      HostFrameBuffer buf = HostFrameBuffer.forVideo(d.info(), q.length, FrameLayout.HWC);
      DecodeResult r = d.decode(q, buf);
      for (int i = 0; i < q.length; i++) {
        assertEquals(frames[i], r.frameIndex(i));
      }
      assertTrue(d.stats().seeks() <= 3, "seeks: " + d.stats().seeks());
      assertEquals(frames.length, d.stats().framesDelivered());
    }
  }

  @Test
  void keyframeEveryTwoFramesKeepsShuffledAccessCheap() {
    try (Decoder d = Decoder.open(Fixtures.video("av1_g2.mp4"))) {
      double[] pts = d.framePtsSeconds();
      HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
      java.util.Random rng = new java.util.Random(3);
      for (int i = 0; i < 60; i++) {
        d.decode(new double[] {pts[rng.nextInt(pts.length)]}, one);
      }
      // Any frame needs at most its keyframe plus itself.
      assertTrue(d.stats().decodeAmplification() <= 2.0, d.stats().toString());
    }
  }

  @Test
  void lastFrameAfterDrainAndBackToTheFirst() {
    for (String name : new String[] {"h264_g30.mp4", "hevc_g30.mp4", "av1_g2.mp4"}) {
      try (Decoder d = Decoder.open(Fixtures.video(name))) {
        double[] pts = d.framePtsSeconds();
        HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
        int n = pts.length;
        for (int f : new int[] {n - 1, 0, n - 1, n - 2, 1}) {
          assertEquals(f, d.decode(new double[] {pts[f]}, one).frameIndex(0), name);
        }
      }
    }
  }

  @Test
  void aNewDecodingPassStartsExactlyAtEachKeyframe() {
    try (Decoder d = Decoder.open(Fixtures.video("h264_g30.mp4"))) {
      double[] pts = d.framePtsSeconds();
      java.util.Set<Double> keyframes = new java.util.HashSet<>();
      for (double k : d.info().keyframeTimestamps()) {
        keyframes.add(k);
      }
      assertEquals(0, d.seekGopOf(0));
      int passes = 1;
      for (int f = 1; f < pts.length; f++) {
        boolean starts = d.seekGopOf(f) != d.seekGopOf(f - 1);
        assertEquals(keyframes.contains(pts[f]), starts, "frame " + f);
        passes += starts ? 1 : 0;
      }
      assertEquals(keyframes.size(), passes);
      assertTrue(passes >= pts.length / 30, "GOP 30: " + passes + " passes");
      org.junit.jupiter.api.Assertions.assertThrows(
          IllegalArgumentException.class, () -> d.seekGopOf(pts.length));
    }
  }
}
