package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.FrameCompare;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.testing.PixelFormatVideos;
import org.robostream.testing.PixelFormatVideos.Kind;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;
import org.robostream.video.VideoDecoderOptions;

/**
 * Pixel formats beyond 8-bit 4:2:0 (yuv444p, yuv420p10le, yuv444p10le; H.264 High 4:4:4 and High
 * 10, HEVC Main 10 and RExt through FFmpeg, AV1 through dav1d) against the ffmpeg CLI: uint8 equal
 * to its {@code rgb24}, float32 equal to its {@code gbrpf32le} (converted from the full-precision
 * samples, not from the uint8 frame), every frame, both layouts.
 */
@ExtendWith(NativeLeakCheck.class)
class PixelFormatExactnessTest {
  private static final int W = PixelFormatVideos.WIDTH;
  private static final int H = PixelFormatVideos.HEIGHT;
  private static final int VALUES = 3 * W * H;

  /** HWC against the CLI's packed {@code rgb24}, CHW against its planar {@code gbrp}. */
  @ParameterizedTest
  @EnumSource(Kind.class)
  void uint8FramesEqualTheCli(Kind kind) {
    Path file = PixelFormatVideos.video(kind);
    try (Decoder d = Decoder.open(file, VideoDecoderOptions.defaults())) {
      assertEquals(kind.pixelFormat(), d.info().pixelFormat());
      assertBackend(kind, d);
      for (FrameLayout layout : FrameLayout.values()) {
        byte[] reference =
            layout == FrameLayout.HWC
                ? FfmpegReference.allFramesRgb(file)
                : FfmpegReference.allFramesPlanarRgb(file, W, H);
        HostFrameBuffer buf = new HostFrameBuffer(PixelFormatVideos.FRAMES, H, W, layout);
        d.decodeFrames(allFrames(), buf);
        for (int f = 0; f < PixelFormatVideos.FRAMES; f++) {
          assertEquals(
              0,
              FrameCompare.maxAbsDiff(buf.frameBytes(f), reference, f * VALUES),
              kind + " " + layout + " frame " + f);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void float32FramesEqualTheCliGbrpf32(Kind kind) {
    Path file = PixelFormatVideos.video(kind);
    float[] reference = FfmpegReference.allFramesUnitFloats(file, W, H);
    try (Decoder d = Decoder.open(file, VideoDecoderOptions.defaults())) {
      for (FrameLayout layout : FrameLayout.values()) {
        HostFrameBuffer buf =
            new HostFrameBuffer(PixelFormatVideos.FRAMES, H, W, layout, FrameSamples.RGB_FLOAT32);
        d.decodeFrames(allFrames(), buf);
        for (int f = 0; f < PixelFormatVideos.FRAMES; f++) {
          float[] chw = chw(floats(buf.frame(f)), layout);
          for (int i = 0; i < VALUES; i++) {
            float expected = reference[f * VALUES + i];
            if (chw[i] != expected) {
              throw new AssertionError(
                  kind + " " + layout + " frame " + f + " value " + i + ": " + chw[i] + " vs "
                      + expected);
            }
          }
        }
      }
    }
  }

  /**
   * Guards the test above: for a 10-bit file the floats carry more than the uint8 frame (they are
   * not its values / 255), so a path that converted to uint8 first would fail it.
   */
  @ParameterizedTest
  @EnumSource(
      value = Kind.class,
      names = {"H264_YUV420P10LE", "HEVC_YUV444P10LE", "AV1_YUV420P10LE"})
  void tenBitFloatsAreFinerThanTheUint8Frame(Kind kind) {
    Path file = PixelFormatVideos.video(kind);
    float[] floats = FfmpegReference.allFramesUnitFloats(file, W, H);
    byte[] rgb = FfmpegReference.allFramesRgb(file);
    int notOnTheUint8Grid = 0;
    for (int f = 0; f < PixelFormatVideos.FRAMES; f++) {
      byte[] chw = FrameCompare.hwcToChw(rgb, f * VALUES, H, W);
      for (int i = 0; i < VALUES; i++) {
        if (floats[f * VALUES + i] != (chw[i] & 0xff) / 255f) {
          notOnTheUint8Grid++;
        }
      }
    }
    assertTrue(notOnTheUint8Grid > VALUES, kind + ": " + notOnTheUint8Grid + " values differ");
  }

  private static void assertBackend(Kind kind, Decoder d) {
    String expected = kind.codec().equals("av1") ? "dav1d" : "avcodec " + kind.codec();
    assertTrue(d.backendDescription().startsWith(expected), d.backendDescription());
  }

  private static int[] allFrames() {
    int[] frames = new int[PixelFormatVideos.FRAMES];
    for (int i = 0; i < frames.length; i++) {
      frames[i] = i;
    }
    return frames;
  }

  private static float[] floats(ByteBuffer frame) {
    float[] out = new float[VALUES];
    frame.order(ByteOrder.nativeOrder()).asFloatBuffer().get(out);
    return out;
  }

  private static float[] chw(float[] frame, FrameLayout layout) {
    if (layout == FrameLayout.CHW) {
      return frame;
    }
    float[] out = new float[VALUES];
    for (int p = 0; p < W * H; p++) {
      for (int c = 0; c < 3; c++) {
        out[c * W * H + p] = frame[p * 3 + c];
      }
    }
    return out;
  }
}
