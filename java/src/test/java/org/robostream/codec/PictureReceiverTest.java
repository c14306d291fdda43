package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.robostream.testing.FfmpegReference;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;
import org.robostream.testing.PixelFormatVideos;
import org.robostream.testing.PixelFormatVideos.Kind;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;
import org.robostream.video.VideoDecoderOptions;

/**
 * {@link Decoder#deliverFrames} hands each request its {@link DecodedPicture} — the one hand-over
 * the loader's frame devices receive frames by: requests in decode order, the requests of a
 * repeated frame one after the other with the same picture, host planes for a CPU decoder, a
 * conversion equal to the ffmpeg CLI's, and {@link DecodedPicture#deep()} from the picture's own
 * format (what the CUDA frame device holds float32 frames by).
 */
@ExtendWith(NativeLeakCheck.class)
class PictureReceiverTest {
  private record Delivery(int request, long frame, DecodedPicture picture) {}

  @Test
  void everyRequestGetsItsPictureAndARepeatedFrameComesOnceConvertedAsTheCliDoes() {
    Path file = Fixtures.video("h264_g30.mp4");
    byte[] reference = FfmpegReference.allFramesRgb(file);
    List<Delivery> got = new ArrayList<>();
    try (Decoder d = Decoder.open(file, VideoDecoderOptions.defaults())) {
      int w = d.info().width();
      int h = d.info().height();
      int frameBytes = 3 * w * h;
      int[] asked = {5, 2, 5, 0};
      HostFrameBuffer slots = new HostFrameBuffer(asked.length, h, w, FrameLayout.HWC);
      DecodeResult r =
          d.deliverFrames(
              asked,
              (request, picture, pts, frame) -> {
                got.add(new Delivery(request, frame, picture));
                assertFalse(picture.onGpu(), "a CPU decoder's picture is in host memory");
                assertFalse(picture.deep(), "8-bit H.264");
                assertEquals(w, picture.width());
                assertNotNull(picture.raw().planes());
                picture.convertInto(
                    new Slot(
                        slots.slotAddress(request), w, h, FrameLayout.HWC, FrameSamples.RGB_UINT8));
              });
      assertEquals(List.of(3, 1, 0, 2), got.stream().map(Delivery::request).toList());
      assertEquals(List.of(0L, 2L, 5L, 5L), got.stream().map(Delivery::frame).toList());
      assertSame(got.get(2).picture(), got.get(3).picture(), "frame 5's two requests, one picture");
      for (int i = 0; i < asked.length; i++) {
        assertEquals(asked[i], r.frameIndex(i), "request " + i);
        int at = asked[i] * frameBytes;
        assertArrayEquals(
            Arrays.copyOfRange(reference, at, at + frameBytes),
            slots.frameBytes(i),
            "request " + i + " (frame " + asked[i] + ")");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aPictureIsDeepByItsOwnPixelFormat(Kind kind) {
    Path file = PixelFormatVideos.video(kind);
    boolean[] deep = new boolean[1];
    try (Decoder d = Decoder.open(file, VideoDecoderOptions.defaults())) {
      d.deliverFrames(new int[] {0}, (request, picture, pts, frame) -> deep[0] = picture.deep());
    }
    assertEquals(PixelFormats.isDeep(kind.pixelFormat()), deep[0], kind.toString());
  }
}
