package org.robostream.codec;

import org.robostream.NativeException;
import org.robostream.video.CorruptVideoException;
import org.robostream.video.UnsupportedVideoException;

/**
 * Calls into a native decoder (dav1d, NVDEC) with their failures turned into the video layer's
 * typed exceptions naming the file: rejected or corrupt input → {@link CorruptVideoException},
 * anything else at packet time → {@link UnsupportedVideoException}; any failure while draining or
 * taking pictures out → {@link CorruptVideoException}. Stateless.
 */
final class NativeDecoderCalls {
  private NativeDecoderCalls() {}

  interface Call {
    void run();
  }

  interface Query {
    boolean run();
  }

  /** Sends a packet; {@code what} prefixes the corrupt-data message ("AV1 decoding failed ..."). */
  static void send(String file, String what, Call call) {
    try {
      call.run();
    } catch (NativeException.CorruptData | NativeException.InvalidArgument e) {
      throw new CorruptVideoException(file, what + ": " + e.getMessage(), e);
    } catch (NativeException e) {
      throw new UnsupportedVideoException(file, e.getMessage(), e);
    }
  }

  static void run(String file, Call call) {
    try {
      call.run();
    } catch (NativeException e) {
      throw new CorruptVideoException(file, e.getMessage(), e);
    }
  }

  static boolean query(String file, Query query) {
    try {
      return query.run();
    } catch (NativeException e) {
      throw new CorruptVideoException(file, e.getMessage(), e);
    }
  }
}
