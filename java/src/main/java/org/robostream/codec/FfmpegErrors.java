package org.robostream.codec;

import java.nio.charset.StandardCharsets;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;
import org.robostream.video.UnsupportedVideoException;

/** Text of FFmpeg error codes. Thread-safe. */
final class FfmpegErrors {
  private static final int BUFFER_BYTES = 256;

  private FfmpegErrors() {}

  /** Throws {@link UnsupportedVideoException} naming {@code file} when {@code rc} is an error. */
  static void check(String file, int rc, String what) {
    if (rc < 0) {
      throw new UnsupportedVideoException(file, what + " failed: " + describe(rc));
    }
  }

  /**
   * FFmpeg's text for {@code code} and the code, e.g. "Invalid data found when processing input
   * (-1094995529)". Only the bytes before av_strerror's terminating NUL are read: the rest of the
   * buffer is uninitialised native memory and must never reach a message.
   */
  static String describe(int code) {
    try (BytePointer buffer = new BytePointer(BUFFER_BYTES)) {
      buffer.put(0, (byte) 0);
      // Unknown codes still get a text ("Error number -41 occurred") with a negative return.
      avutil.av_strerror(code, buffer, BUFFER_BYTES);
      String text = untilNul(buffer);
      return (text.isEmpty() ? "FFmpeg error" : text) + " (" + code + ")";
    }
  }

  private static String untilNul(BytePointer buffer) {
    byte[] bytes = new byte[BUFFER_BYTES];
    buffer.get(bytes);
    int length = 0;
    while (length < bytes.length && bytes[length] != 0) {
      length++;
    }
    return new String(bytes, 0, length, StandardCharsets.UTF_8);
  }
}
