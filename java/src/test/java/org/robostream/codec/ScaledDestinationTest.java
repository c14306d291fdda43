package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.video.ColorConverterKind;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;

/**
 * A {@link Decoder} destination of another size than the stream: the frame is scaled by the swscale
 * call that converts it (the device path's CPU decoders rely on this), equal to the ffmpeg CLI's
 * bilinear scale filter; the libyuv converter, which cannot scale, is refused before anything is
 * decoded, naming the option.
 */
class ScaledDestinationTest {
  private static final int W = 200;
  private static final int H = 150;

  @ParameterizedTest
  @ValueSource(strings = {"camera_h264_640x480.mp4", "camera_av1_640x480.mp4"})
  void aSmallerDestinationGetsTheFrameScaledInTheConversion(String name) {
    Path file = Fixtures.video(name);
    byte[] all = FfmpegReference.allFramesRgbScaled(file, W, H, "bilinear");
    int frameBytes = 3 * W * H;
    try (Decoder d = Decoder.open(file, VideoDecoderOptions.defaults())) {
      HostFrameBuffer buf = new HostFrameBuffer(2, H, W, FrameLayout.HWC);
      d.decodeFrames(new int[] {3, 0}, buf);
      assertArrayEquals(Arrays.copyOfRange(all, 3 * frameBytes, 4 * frameBytes), buf.frameBytes(0));
      assertArrayEquals(Arrays.copyOfRange(all, 0, frameBytes), buf.frameBytes(1));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"camera_h264_640x480.mp4", "camera_av1_640x480.mp4"})
  void libyuvRefusesAScaledDestination(String name) {
    Path file = Fixtures.video(name);
    try (Decoder d =
        Decoder.open(
            file, VideoDecoderOptions.defaults().withConverter(ColorConverterKind.LIBYUV))) {
      HostFrameBuffer buf = new HostFrameBuffer(1, H, W, FrameLayout.HWC);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> d.decodeFrames(new int[] {0}, buf));
      assertTrue(e.getMessage().contains("withConverter(LIBYUV)"), e.getMessage());
      assertTrue(e.getMessage().contains("200x150"), e.getMessage());
      assertTrue(e.getMessage().contains("640x480"), e.getMessage());
      // Its own size still converts with libyuv.
      d.decodeFrames(new int[] {0}, HostFrameBuffer.forVideo(d.info(), 1, FrameLayout.HWC));
    }
  }
}
