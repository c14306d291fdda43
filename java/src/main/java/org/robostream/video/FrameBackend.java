package org.robostream.video;

import org.bytedeco.ffmpeg.avcodec.AVPacket;

/**
 * A codec behind a {@link VideoDecoder}: takes the demuxed packets of one stream in decode order
 * and hands out its pictures one at a time, each either converted to RGB straight into a slot or
 * given unconverted as host planes. Implementations ({@link FrameBackends} chooses): {@link
 * AvcodecBackend} (FFmpeg: H.264, HEVC, MPEG-4 Part 2, VP9, libaom-av1), {@link Dav1dBackend} (AV1
 * in the native core), both converting into host memory with swscale or libyuv; {@link
 * NvdecBackend}, whose pictures stay on the GPU and are converted by its colour kernel into device
 * memory only.
 *
 * <p>Not thread-safe: owned by one {@link VideoDecoder}, which closes it. Failures are thrown as
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

  /**
   * Converts the current frame to {@code samples} in {@code layout} into the slot at {@code dst},
   * of {@code dstWidth} x {@code dstHeight}: host memory for the CPU backends, device memory of its
   * GPU for NVDEC (colour only). A slot of another size than the frame gets the frame scaled by the
   * same conversion (swscale, or NVDEC's colour kernel; bilinear), never by an extra pass; depth
   * maps and libyuv do not scale ({@link VideoDecoder} refuses such destinations before decoding).
   */
  void convertCurrent(
      long dst, int dstWidth, int dstHeight, FrameLayout layout, FrameSamples samples);

  /**
   * Throws when a converter that cannot scale ({@code what}: libyuv, a depth map's copy) is handed
   * a slot of another size than the frame. {@link VideoDecoder} refuses such destinations before
   * decoding; this guard keeps a backend from ever writing a frame of the wrong size into a slot.
   */
  static void requireUnscaled(
      String file, String what, int width, int height, int dstWidth, int dstHeight) {
    if (width != dstWidth || height != dstHeight) {
      throw new IllegalArgumentException(
          file
              + ": "
              + what
              + " cannot scale a "
              + width
              + "x"
              + height
              + " frame into a "
              + dstWidth
              + "x"
              + dstHeight
              + " slot");
    }
  }

  /**
   * The current frame's planes, unconverted, in host memory; valid until the next {@link
   * #receive()}. NVDEC has none to give (an {@link UnsupportedVideoException}).
   */
  RawPicture currentPicture();

  /**
   * Forgets all decoder state: before a seek, and, on NVDEC, at the end of every decode call (which
   * gives the session back to the GPU's pool).
   */
  void flush();

  /** Short description, e.g. "dav1d 1.0.0", "avcodec h264" or "nvdec cuda:0". */
  String description();

  @Override
  void close();
}
