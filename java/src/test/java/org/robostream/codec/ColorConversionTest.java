package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.testing.FrameCompare;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.ColorConverterKind;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;

/**
 * Colour matrix and range follow the stream (BT.709 and BT.601, full and limited range, H.264
 * through FFmpeg and AV1 through dav1d); libyuv and swscale agree with the ffmpeg CLI. Untagged
 * streams (read as BT.601 limited) are covered by FrameExactnessTest.
 */
@ExtendWith(NativeLeakCheck.class)
class ColorConversionTest {
  /** Tagged fixtures: file, the matrix and range the container declares. */
  static Stream<Arguments> taggedStreams() {
    return Stream.of(
        Arguments.of("h264_bt709_full.mp4", "bt709", "pc"),
        Arguments.of("h264_bt709_limited.mp4", "bt709", "tv"),
        Arguments.of("h264_bt601_full.mp4", "smpte170m", "pc"),
        Arguments.of("av1_bt709_full.mp4", "bt709", "pc"));
  }

  @ParameterizedTest
  @MethodSource("taggedStreams")
  void taggedStreamsMatchTheReference(String name, String matrix, String range) {
    Path file = Fixtures.video(name);
    byte[] ref = FfmpegReference.allFramesRgb(file);
    for (ColorConverterKind kind :
        new ColorConverterKind[] {ColorConverterKind.LIBYUV, ColorConverterKind.SWSCALE}) {
      try (Decoder d = Decoder.open(file, VideoDecoderOptions.defaults().withConverter(kind))) {
        assertEquals(matrix, d.info().colorMatrix());
        assertEquals(range, d.info().colorRange());
        if (d.info().codec().equals("av1")) {
          assertTrue(d.backendDescription().startsWith("dav1d"), d.backendDescription());
        }
        double[] pts = d.framePtsSeconds();
        HostFrameBuffer buf = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
        int frameBytes = d.info().width() * d.info().height() * 3;
        for (int f : new int[] {0, pts.length / 2 + 1, pts.length - 1}) {
          d.decode(new double[] {pts[f]}, buf);
          double diff = FrameCompare.meanAbsDiff(buf.frameBytes(0), ref, f * frameBytes);
          assertTrue(
              diff <= FrameExactnessTest.MEAN_TOLERANCE,
              kind + " " + d.backendDescription() + " frame " + f + " mean diff " + diff);
        }
      }
    }
  }

  /**
   * Guards the test above: each fixture's tags change the colours by more than twice the tolerance,
   * so a converter that ignored them (reading untagged BT.601 limited range) fails.
   */
  @ParameterizedTest
  @MethodSource("taggedStreams")
  void ignoringTheTagsWouldBeVisible(String name, String matrix, String range) {
    Path file = Fixtures.video(name);
    double diff =
        FrameCompare.meanAbsDiff(
            FfmpegReference.allFramesRgb(file),
            FfmpegReference.allFramesRgbReadAs(file, "bt601", "tv"),
            0);
    assertTrue(diff > 2 * FrameExactnessTest.MEAN_TOLERANCE, name + ": mean diff " + diff);
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"camera_h264_640x480.mp4", "camera_av1_640x480.mp4"})
  void libyuvAndSwscaleAgreeOnCameraContent(String name) {
    Path file = Fixtures.video(name);
    try (Decoder a =
            Decoder.open(
                file, VideoDecoderOptions.defaults().withConverter(ColorConverterKind.LIBYUV));
        Decoder b =
            Decoder.open(
                file, VideoDecoderOptions.defaults().withConverter(ColorConverterKind.SWSCALE))) {
      HostFrameBuffer fa = HostFrameBuffer.forVideo(a.info(), 1, FrameLayout.CHW);
      HostFrameBuffer fb = HostFrameBuffer.forVideo(b.info(), 1, FrameLayout.CHW);
      a.decode(new double[] {1.0}, fa);
      b.decode(new double[] {1.0}, fb);
      byte[] x = fa.frameBytes(0);
      byte[] y = fb.frameBytes(0);
      assertTrue(FrameCompare.meanAbsDiff(x, y, 0) <= 1.5);
      assertTrue(FrameCompare.maxAbsDiff(x, y, 0) <= 24, "max " + FrameCompare.maxAbsDiff(x, y, 0));
    }
  }
}
