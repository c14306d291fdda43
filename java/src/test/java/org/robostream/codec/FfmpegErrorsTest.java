package org.robostream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.bytedeco.ffmpeg.global.avutil;
import org.junit.jupiter.api.Test;

/** FFmpeg's error texts reach messages as exactly the text av_strerror wrote. */
class FfmpegErrorsTest {

  /** Every character is printable: no NUL, no control byte, no leftover native memory. */
  static void assertPrintable(String message) {
    for (int i = 0; i < message.length(); i++) {
      char c = message.charAt(i);
      assertTrue(
          c >= 0x20 && c != 0x7f,
          "character " + (int) c + " at " + i + " in: " + message.replace('\0', '@'));
    }
  }

  @Test
  void aKnownCodeReadsAsFfmpegsTextAndNothingElse() {
    assertEquals(
        "Invalid data found when processing input (" + avutil.AVERROR_INVALIDDATA + ")",
        FfmpegErrors.describe(avutil.AVERROR_INVALIDDATA));
    assertEquals(
        "End of file (" + avutil.AVERROR_EOF + ")", FfmpegErrors.describe(avutil.AVERROR_EOF));
  }

  @Test
  void everyCodeGivesAPrintableMessage() {
    Random random = new Random(7);
    for (int i = 0; i < 2000; i++) {
      int code = i < 200 ? -i : random.nextInt();
      String text = FfmpegErrors.describe(code);
      assertPrintable(text);
      assertTrue(text.endsWith("(" + code + ")"), text);
      assertTrue(text.length() < 120, "one short line, not a buffer: " + text);
    }
  }
}
