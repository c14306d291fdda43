package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.testing.FrameCompare;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;
import org.robostream.video.VideoStreamInfo;

/**
 * Every codec, every access order: each delivered frame is the reference frame the ffmpeg CLI
 * decodes at that index (identity read from the pattern, pixels within the colour tolerance).
 */
@ExtendWith(NativeLeakCheck.class)
class FrameExactnessTest {
  /** libyuv and swscale round differently; measured worst cases are far below these. */
  static final double MEAN_TOLERANCE = 1.5;

  static Stream<String> fixtures() {
    return Stream.of(
        "h264_g1.mp4",
        "h264_g2.mp4",
        "h264_g30.mp4",
        "h264_g250.mp4",
        "hevc_g30.mp4",
        "av1_g2.mp4",
        "mpeg4_g12.mp4",
        "vp9_g30.webm",
        "vfr_h264.mp4");
  }

  record Reference(double[] pts, byte[] frames, int width, int height) {
    int frameBytes() {
      return width * height * 3;
    }
  }

  static Reference reference(Path file, VideoStreamInfo info) {
    return new Reference(
        FfmpegReference.framePts(file),
        FfmpegReference.allFramesRgb(file),
        info.width(),
        info.height());
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void frameTableMatchesFfprobe(String name) {
    Path file = Fixtures.video(name);
    try (Decoder decoder = Decoder.open(file)) {
      double[] expected = FfmpegReference.framePts(file);
      double[] actual = decoder.framePtsSeconds();
      assertEquals(expected.length, actual.length, "frame count");
      for (int i = 0; i < expected.length; i++) {
        assertEquals(expected[i], actual[i], 1e-5, "pts of frame " + i);
      }
      assertEquals(expected.length, decoder.info().frameCount());
      assertTrue(decoder.info().keyframeTimestamps().length >= 1);
    }
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void everyAccessOrderDeliversTheReferenceFrame(String name) {
    checkEveryAccessOrder(name, VideoDecoderOptions.defaults());
  }

  /**
   * Decoders that pipeline frames across threads (the sequential configuration) hold pictures back
   * until later packets arrive: still exact in every order, with nothing lost at the end.
   */
  @ParameterizedTest
  @MethodSource("pipelinedFixtures")
  void pipelinedMultiThreadedDecodersStayExact(String name) {
    checkEveryAccessOrder(
        name, VideoDecoderOptions.defaults().withThreads(2).withLowLatency(false));
  }

  static Stream<String> pipelinedFixtures() {
    return Stream.of("av1_g2.mp4", "h264_g30.mp4", "hevc_g30.mp4");
  }

  private static void checkEveryAccessOrder(String name, VideoDecoderOptions options) {
    Path file = Fixtures.video(name);
    try (Decoder decoder = Decoder.open(file, options)) {
      Reference ref = reference(file, decoder.info());
      int n = ref.pts().length;
      List<Integer> forward = new ArrayList<>();
      for (int i = 0; i < n; i += 7) {
        forward.add(i);
      }
      forward.add(n - 1);
      List<Integer> backward = new ArrayList<>(forward);
      Collections.reverse(backward);
      List<Integer> shuffled = new ArrayList<>(forward);
      Collections.shuffle(shuffled, new Random(7));
      List<Integer> repeated = List.of(n / 2, n / 2, 0, n - 1, 0, n / 2 + 1, n / 2);

      for (List<Integer> order : List.of(forward, backward, shuffled, repeated)) {
        // One frame per call: the decoder must stay exact whatever state the previous call left.
        HostFrameBuffer one = HostFrameBuffer.forVideo(decoder.info(), 1, FrameLayout.HWC);
        for (int frame : order) {
          DecodeResult r = decoder.decode(new double[] {ref.pts()[frame]}, one);
          assertEquals(frame, r.frameIndex(0), name + ": frame index for pts " + ref.pts()[frame]);
          checkFrame(name, ref, frame, one.frameBytes(0));
        }
        // The same order in one call: planned (sorted, de-duplicated), delivered per request.
        double[] queries = order.stream().mapToDouble(f -> ref.pts()[f]).toArray();
        HostFrameBuffer many =
            HostFrameBuffer.forVideo(decoder.info(), queries.length, FrameLayout.HWC);
        DecodeResult r = decoder.decode(queries, many);
        for (int i = 0; i < queries.length; i++) {
          assertEquals((long) order.get(i), r.frameIndex(i));
          checkFrame(name, ref, order.get(i), many.frameBytes(i));
        }
      }
    }
  }

  static void checkFrame(String name, Reference ref, int frame, byte[] actual) {
    boolean pattern = !name.startsWith("camera");
    if (pattern) {
      assertEquals(
          frame % 1024,
          FrameCompare.patternFrameNumber(actual, ref.width()),
          name + ": frame identity of frame " + frame);
    }
    double diff = FrameCompare.meanAbsDiff(actual, ref.frames(), frame * ref.frameBytes());
    assertTrue(
        diff <= MEAN_TOLERANCE,
        name
            + ": frame "
            + frame
            + " differs from the ffmpeg"
            + " reference by "
            + diff
            + " per byte");
    for (int neighbour : new int[] {frame - 1, frame + 1}) {
      if (neighbour >= 0 && neighbour < ref.pts().length) {
        double other = FrameCompare.meanAbsDiff(actual, ref.frames(), neighbour * ref.frameBytes());
        assertTrue(diff < other, name + ": frame " + frame + " is closer to frame " + neighbour);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void chwIsThePlanarFormOfHwc(String name) {
    Path file = Fixtures.video(name);
    try (Decoder decoder = Decoder.open(file)) {
      double[] pts = decoder.framePtsSeconds();
      double[] q = {pts[3], pts[pts.length - 2]};
      HostFrameBuffer hwc = HostFrameBuffer.forVideo(decoder.info(), 2, FrameLayout.HWC);
      HostFrameBuffer chw = HostFrameBuffer.forVideo(decoder.info(), 2, FrameLayout.CHW);
      decoder.decode(q, hwc);
      decoder.decode(q, chw);
      for (int i = 0; i < 2; i++) {
        assertArrayEquals(
            hwc.frameBytes(i), FrameCompare.chwToHwc(chw.frameBytes(i), hwc.height(), hwc.width()));
      }
    }
  }
}
