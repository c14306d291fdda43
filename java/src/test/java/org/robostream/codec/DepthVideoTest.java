package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.FrameCompare;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.testing.PixelFormatVideos;
import org.robostream.testing.PixelFormatVideos.DepthKind;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;
import org.robostream.video.UnsupportedVideoException;
import org.robostream.video.VideoDecoderOptions;

/**
 * Depth video (gray16le, gray12le and the Y plane of yuv420p16le through FFV1, gray12le through
 * HEVC RExt, 8-bit monochrome AV1 through dav1d) decodes to one channel per pixel: uint16 equal to
 * the samples the ffmpeg CLI decodes (in the file's own pixel format: its gray16le conversion would
 * multiply 12-bit values by 16), float32 the same values as floats, in both layouts.
 */
@ExtendWith(NativeLeakCheck.class)
class DepthVideoTest {
  private static final int W = PixelFormatVideos.WIDTH;
  private static final int H = PixelFormatVideos.HEIGHT;
  private static final int PIXELS = W * H;

  @ParameterizedTest
  @EnumSource(DepthKind.class)
  void uint16AndFloat32ValuesAreTheDecodedSamples(DepthKind kind) {
    Path file = PixelFormatVideos.video(kind);
    int[] reference = decodedFirstPlane(file, kind);
    try (Decoder d = Decoder.open(file, VideoDecoderOptions.defaults())) {
      for (FrameLayout layout : FrameLayout.values()) {
        HostFrameBuffer shorts = depth(layout, FrameSamples.DEPTH_UINT16);
        HostFrameBuffer floats = depth(layout, FrameSamples.DEPTH_FLOAT32);
        d.decodeFrames(allFrames(), shorts);
        d.decodeFrames(allFrames(), floats);
        for (int f = 0; f < PixelFormatVideos.FRAMES; f++) {
          var u16 = shorts.frame(f).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer();
          var f32 = floats.frame(f).order(ByteOrder.nativeOrder()).asFloatBuffer();
          assertEquals(PIXELS, u16.remaining(), "one channel");
          for (int i = 0; i < PIXELS; i++) {
            int want = reference[f * PIXELS + i];
            String at = kind + " " + layout + " frame " + f + " pixel " + i;
            assertEquals(want, u16.get(i) & 0xffff, at);
            assertEquals(want, f32.get(i), 0f, at);
          }
        }
      }
    }
  }

  /** Guards the test above: the 12-bit files use the upper half of their range. */
  @Test
  void twelveBitFilesHoldValuesAbove255ButBelow4096() {
    int[] values = decodedFirstPlane(PixelFormatVideos.video(DepthKind.FFV1_GRAY12LE), null);
    int max = java.util.Arrays.stream(values).max().orElseThrow();
    assertTrue(max > 2048 && max < 4096, "max " + max);
  }

  /** dav1d's monochrome pictures (I400) convert to RGB too: grey, equal to the CLI's rgb24. */
  @Test
  void monochromeAv1DecodesToGreyRgb() {
    Path file = PixelFormatVideos.video(DepthKind.AV1_GRAY);
    byte[] reference = FfmpegReference.allFramesRgb(file);
    try (Decoder d = Decoder.open(file, VideoDecoderOptions.defaults())) {
      assertTrue(d.backendDescription().startsWith("dav1d"), d.backendDescription());
      HostFrameBuffer rgb = new HostFrameBuffer(PixelFormatVideos.FRAMES, H, W, FrameLayout.HWC);
      d.decodeFrames(allFrames(), rgb);
      for (int f = 0; f < PixelFormatVideos.FRAMES; f++) {
        assertEquals(
            0, FrameCompare.maxAbsDiff(rgb.frameBytes(f), reference, f * 3 * PIXELS), "frame " + f);
      }
    }
  }

  @Test
  void aColourPictureIsNotADepthMap() {
    // FFV1 decodes this RGB file as bgr0: its first component is blue, not depth.
    Path file = PixelFormatVideos.rgbVideo();
    try (Decoder d = Decoder.open(file, VideoDecoderOptions.defaults())) {
      UnsupportedVideoException e =
          assertThrows(
              UnsupportedVideoException.class,
              () ->
                  d.decodeFrames(new int[] {0}, depth(FrameLayout.HWC, FrameSamples.DEPTH_UINT16)));
      assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
      assertTrue(e.getMessage().contains("is_depth_map"), e.getMessage());
      assertTrue(e.getMessage().contains("this one is bgr0"), e.getMessage());
    }
  }

  private static HostFrameBuffer depth(FrameLayout layout, FrameSamples samples) {
    return new HostFrameBuffer(PixelFormatVideos.FRAMES, H, W, layout, samples);
  }

  /**
   * Each frame's first-plane samples as the ffmpeg CLI decodes them, in the file's own pixel format
   * (null: gray12le), widened to int.
   */
  private static int[] decodedFirstPlane(Path file, DepthKind kind) {
    String format = kind == null ? "gray12le" : kind.pixelFormat();
    byte[] raw = FfmpegReference.allFramesRaw(file, format);
    int sampleBytes = format.equals("gray") ? 1 : 2;
    int frameBytes = raw.length / PixelFormatVideos.FRAMES;
    int[] out = new int[PixelFormatVideos.FRAMES * PIXELS];
    for (int f = 0; f < PixelFormatVideos.FRAMES; f++) {
      for (int i = 0; i < PIXELS; i++) {
        int at = f * frameBytes + i * sampleBytes;
        out[f * PIXELS + i] =
            sampleBytes == 1 ? raw[at] & 0xff : (raw[at] & 0xff) | (raw[at + 1] & 0xff) << 8;
      }
    }
    return out;
  }

  private static int[] allFrames() {
    int[] frames = new int[PixelFormatVideos.FRAMES];
    for (int i = 0; i < frames.length; i++) {
      frames[i] = i;
    }
    return frames;
  }
}
