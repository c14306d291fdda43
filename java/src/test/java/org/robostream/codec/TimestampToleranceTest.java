package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameTimestampException;
import org.robostream.video.VideoDecoderOptions;

/** Queries are matched by pts within tolerance_s, never by average fps. */
@ExtendWith(NativeLeakCheck.class)
class TimestampToleranceTest {
  @Test
  void variableFrameRateIsAddressedByPts() {
    Path file = Fixtures.video("vfr_h264.mp4");
    double[] ref = FfmpegReference.framePts(file);
    try (Decoder d = Decoder.open(file)) {
      HostFrameBuffer buf = HostFrameBuffer.forVideo(d.info(), ref.length, FrameLayout.HWC);
      DecodeResult r = d.decode(ref, buf);
      for (int i = 0; i < ref.length; i++) {
        assertEquals(i, r.frameIndex(i));
        assertEquals(ref[i], r.ptsSeconds(i), 1e-6);
      }
      // Frame 7 follows a gap: average-fps arithmetic (7/30 s) would land between frames.
      FrameTimestampException e =
          assertThrows(
              FrameTimestampException.class,
              () ->
                  d.decode(
                      new double[] {7 / 30.0},
                      HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC)));
      assertEquals(6 / 30.0, e.nearestPtsSeconds(), 1e-6);
    }
  }

  @Test
  void offByMoreThanToleranceIsATypedErrorNamingFileQueryAndNearestPts() {
    Path file = Fixtures.video("h264_g30.mp4");
    try (Decoder d = Decoder.open(file)) {
      HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
      double q = 1.0 + 0.5e-3;
      FrameTimestampException e =
          assertThrows(FrameTimestampException.class, () -> d.decode(new double[] {q}, one));
      assertEquals(q, e.querySeconds());
      assertEquals(1.0, e.nearestPtsSeconds(), 1e-9);
      assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
      assertTrue(e.getMessage().contains("1.000500"), e.getMessage());
      // Within the tolerance it is the same frame.
      assertEquals(30, d.decode(new double[] {1.0 + 0.5e-4}, one).frameIndex(0));
      for (double bad : new double[] {-0.5, 10.5, Double.NaN}) {
        assertThrows(FrameTimestampException.class, () -> d.decode(new double[] {bad}, one));
      }
      // Frame 30 starts GOP 1: one seek there and one frame decoded (the seek by the keyframe's
      // pts lands on it, not on GOP 0 as a seek by its packet's dts did, which decoded 31).
      assertEquals(1, d.stats().framesDecoded(), "a rejected call decodes nothing");
    }
  }

  @Test
  void widerToleranceIsAnOption() {
    VideoDecoderOptions loose = VideoDecoderOptions.defaults().withTolerance(0.02);
    try (Decoder d = Decoder.open(Fixtures.video("h264_g30.mp4"), loose)) {
      HostFrameBuffer one = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
      assertEquals(31, d.decode(new double[] {1.04}, one).frameIndex(0));
    }
    assertThrows(
        IllegalArgumentException.class, () -> VideoDecoderOptions.defaults().withTolerance(-1));
  }
}
