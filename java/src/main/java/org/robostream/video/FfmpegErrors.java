package org.robostream.video;

import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;

/** Text of FFmpeg error codes. Thread-safe. */
final class FfmpegErrors {
  private FfmpegErrors() {}

  /** Throws {@link UnsupportedVideoException} naming {@code file} when {@code rc} is an error. */
  static void check(String file, int rc, String what) {
    if (rc < 0) {
      throw new UnsupportedVideoException(file, what + " failed: " + describe(rc));
    }
  }

  static String describe(int code) {
    try (BytePointer buffer = new BytePointer(256)) {
      if (avutil.av_strerror(code, buffer, 256) < 0) {
        return "FFmpeg error " + code;
      }
      return buffer.getString() + " (" + code + ")";
    }
  }
}
