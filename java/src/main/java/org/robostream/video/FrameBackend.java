package org.robostream.video;

import org.bytedeco.ffmpeg.avcodec.AVPacket;

/**
 * A codec backend turning demuxed packets into frames that are converted straight into frame
 * slots. Implementations: {@link AvcodecBackend} (FFmpeg) and {@link Dav1dBackend} (AV1).
 *
 * <p>Not thread-safe: owned by one {@link VideoDecoder}. Failures are thrown as
 * {@link VideoException}s naming the file.
 */
interface FrameBackend extends AutoCloseable {
  /** Decodes one packet; the frames it completes become available through {@link #receive()}. */
  void send(AVPacket packet);

  /** Signals the end of the stream so that frames held back are released. */
  void drain();

  /** Makes the next decoded frame current; false when none is ready. */
  boolean receive();

  /** pts (stream time base) of the current frame. */
  long currentPts();

  int currentWidth();

  int currentHeight();

  /** Converts the current frame to RGB24 into the slot at {@code dst}. */
  void convertCurrent(long dst, FrameLayout layout);

  /** The current frame's planes, unconverted; valid until the next {@link #receive()}. */
  RawPicture currentPicture();

  /** Forgets all decoder state (before a seek). */
  void flush();

  /** Short description, e.g. "dav1d 1.0.0" or "avcodec h264". */
  String description();

  @Override
  void close();
}
