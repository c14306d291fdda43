package org.robostream.video;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.testing.FrameCompare;
import org.robostream.testing.NativeLeakCheck;

/** Colour matrix and range follow the stream; libyuv and swscale agree with the ffmpeg CLI. */
@ExtendWith(NativeLeakCheck.class)
class ColorConversionTest {
  @Test
  void bt709FullRangeStreamMatchesTheReference() {
    Path file = Fixtures.video("h264_bt709_full.mp4");
    byte[] ref = FfmpegReference.allFramesRgb(file);
    for (ColorConverterKind kind : new ColorConverterKind[] {ColorConverterKind.LIBYUV,
        ColorConverterKind.SWSCALE}) {
      try (VideoDecoder d = VideoDecoder.open(file,
          VideoDecoderOptions.defaults().withConverter(kind))) {
        assertEquals("bt709", d.info().colorMatrix());
        assertEquals("pc", d.info().colorRange());
        double[] pts = d.framePtsSeconds();
        HostFrameBuffer buf = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
        int frameBytes = d.info().width() * d.info().height() * 3;
        for (int f : new int[] {0, 45, 299}) {
          d.decode(new double[] {pts[f]}, buf);
          double diff = FrameCompare.meanAbsDiff(buf.frameBytes(0), ref, f * frameBytes);
          assertTrue(diff <= 1.5, kind + " frame " + f + " mean diff " + diff);
        }
      }
    }
  }

  @Test
  void wrongMatrixWouldBeVisible() {
    // Guards the test above: reading BT.709 full-range data as BT.601 limited is far off.
    Path file = Fixtures.video("h264_bt709_full.mp4");
    byte[] ref = FfmpegReference.allFramesRgb(file);
    try (VideoDecoder d = VideoDecoder.open(Fixtures.video("h264_g30.mp4"))) {
      HostFrameBuffer buf = HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC);
      d.decode(new double[] {0}, buf);
      // Same pattern source, different tagging: the limited-range rendering differs clearly.
      assertTrue(FrameCompare.meanAbsDiff(buf.frameBytes(0), ref, 0) > 2.0);
    }
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"camera_h264_640x480.mp4",
      "camera_av1_640x480.mp4"})
  void libyuvAndSwscaleAgreeOnCameraContent(String name) {
    Path file = Fixtures.video(name);
    try (VideoDecoder a = VideoDecoder.open(file,
            VideoDecoderOptions.defaults().withConverter(ColorConverterKind.LIBYUV));
        VideoDecoder b = VideoDecoder.open(file,
            VideoDecoderOptions.defaults().withConverter(ColorConverterKind.SWSCALE))) {
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
