package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Fixtures;
import org.robostream.testing.NativeLeakCheck;

/** The pixel format is reported without decoding, from the codec configuration record. */
@ExtendWith(NativeLeakCheck.class)
class ExtradataPixelFormatTest {
  @TempDir Path tmp;

  static String pixelFormat(Path file) {
    try (Decoder d = Decoder.open(file)) {
      return d.info().pixelFormat();
    }
  }

  @Test
  void eightBitFixturesAreYuv420p() {
    for (String name :
        new String[] {"av1_g2.mp4", "h264_g30.mp4", "hevc_g30.mp4", "mpeg4_g12.mp4"}) {
      assertEquals("yuv420p", pixelFormat(Fixtures.video(name)), name);
    }
  }

  @Test
  void tenBitAndFourFourFourAreRecognised() throws Exception {
    Path h264High10 = tmp.resolve("h10.mp4");
    Path hevc444 = tmp.resolve("h444.mp4");
    Path av1Ten = tmp.resolve("a10.mp4");
    BadInputTest.ffmpeg(
        "-f",
        "lavfi",
        "-i",
        "testsrc2=s=64x48:d=0.2",
        "-c:v",
        "libx264",
        "-pix_fmt",
        "yuv420p10le",
        h264High10.toString());
    BadInputTest.ffmpeg(
        "-f",
        "lavfi",
        "-i",
        "testsrc2=s=64x48:d=0.2",
        "-c:v",
        "libx265",
        "-x265-params",
        "log-level=error",
        "-pix_fmt",
        "yuv444p",
        hevc444.toString());
    BadInputTest.ffmpeg(
        "-f",
        "lavfi",
        "-i",
        "testsrc2=s=64x64:d=0.2",
        "-c:v",
        "libsvtav1",
        "-preset",
        "12",
        "-pix_fmt",
        "yuv420p10le",
        av1Ten.toString());
    assertEquals("yuv420p10le", pixelFormat(h264High10));
    assertEquals("yuv444p", pixelFormat(hevc444));
    assertEquals("yuv420p10le", pixelFormat(av1Ten));
  }

  @Test
  void av1cFlagsMapToFormats() {
    // marker|version, profile|level, flags (tier, high_bitdepth, twelve_bit, mono, ssx, ssy, pos)
    assertEquals("yuv420p", name(ExtradataPixelFormat.av1c(new byte[] {(byte) 0x81, 0, 0x0c, 0})));
    assertEquals("yuv444p", name(ExtradataPixelFormat.av1c(new byte[] {(byte) 0x81, 0, 0x00, 0})));
    assertEquals("gray", name(ExtradataPixelFormat.av1c(new byte[] {(byte) 0x81, 0, 0x1c, 0})));
    assertEquals(-1, ExtradataPixelFormat.av1c(new byte[] {0x01, 0, 0, 0}));
  }

  static String name(int format) {
    return org.bytedeco.ffmpeg.global.avutil.av_get_pix_fmt_name(format).getString();
  }
}
