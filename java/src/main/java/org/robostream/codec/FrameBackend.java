package org.robostream.codec;

import org.bytedeco.ffmpeg.avcodec.AVPacket;

/**
 * A codec behind a {@link Decoder}: takes one stream's packets in decode order and hands out its
 * pictures one at a time. The backend is its current picture: {@link DecodeCursor} hands the
 * backend itself to receivers, valid until the next {@link #receive()}. What differs by device is
 * said here, so nothing else asks which backend it is: {@link #onGpu()}, {@link
 * #keepsPositionBetweenCalls()}, {@link #cudaStream()}.
 *
 * <p>{@link FrameBackends} chooses: {@link AvcodecBackend} (FFmpeg), {@link Dav1dBackend} (AV1),
 * both into host memory; {@link NvdecBackend}, into device memory only. Not thread-safe: owned and
 * closed by one {@link Decoder}. Failures are {@link VideoException}s naming the file.
 */
interface FrameBackend extends DecodedPicture, AutoCloseable {
  /** Decodes one packet; the frames it completes become available through {@link #receive()}. */
  void send(AVPacket packet);

  /** Signals the end of the stream so that frames held back are released. */
  void drain();

  /** Makes the next decoded frame current; false when none is ready. */
  boolean receive();

  /** pts (stream time base) of the current frame. */
  long currentPts();

  /**
   * Throws when a converter that cannot scale ({@code what}: libyuv, a depth map's copy) is handed
   * a slot of another size than the frame. {@link Decoder} refuses such destinations before
   * decoding; this guard keeps a backend from ever writing a frame of the wrong size into a slot.
   */
  static void requireUnscaled(String file, String what, int width, int height, Slot slot) {
    if (width != slot.width() || height != slot.height()) {
      throw new IllegalArgumentException(
          file
              + ": "
              + what
              + " cannot scale a "
              + width
              + "x"
              + height
              + " frame into a "
              + slot.width()
              + "x"
              + slot.height()
              + " slot");
    }
  }

  /**
   * Forgets all decoder state: before a seek, and where {@link #keepsPositionBetweenCalls()} is
   * false, after each call.
   */
  void flush();

  /**
   * Whether the decoder keeps its position from one decode call to the next. NVDEC does not: it
   * gives its session back to the GPU's pool after every call (a GPU has a few decode engines and
   * the pool caps sessions, so a loader with more live streams than sessions would otherwise wait
   * for itself); the next call then starts with a seek.
   */
  default boolean keepsPositionBetweenCalls() {
    return true;
  }

  /** The CUDA stream conversions run on (0: host memory, done when a conversion returns). */
  default long cudaStream() {
    return 0;
  }

  /** Short description, e.g. "dav1d 1.0.0", "avcodec h264" or "nvdec cuda:0". */
  String description();

  @Override
  void close();
}
