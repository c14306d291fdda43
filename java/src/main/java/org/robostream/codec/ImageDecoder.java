package org.robostream.codec;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_MJPEG;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_PNG;
import static org.bytedeco.ffmpeg.global.avcodec.AV_EF_BITSTREAM;
import static org.bytedeco.ffmpeg.global.avcodec.AV_EF_BUFFER;
import static org.bytedeco.ffmpeg.global.avcodec.AV_EF_CRCCHECK;
import static org.bytedeco.ffmpeg.global.avcodec.AV_EF_EXPLODE;
import static org.bytedeco.ffmpeg.global.avcodec.AV_INPUT_BUFFER_PADDING_SIZE;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_decoder;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_open2;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_receive_frame;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_send_packet;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_unref;
import static org.bytedeco.ffmpeg.global.avutil.av_free;
import static org.bytedeco.ffmpeg.global.avutil.av_malloc;

import java.util.EnumMap;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.robostream.video.CorruptImageException;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;
import org.robostream.video.UnsupportedVideoException;

/**
 * Decodes the PNG and JPEG images of image features with FFmpeg's {@code png} and {@code mjpeg}
 * decoders (one packet per image: both codecs are intra-only, so every packet gives its picture at
 * once), and converts the current picture to RGB with the same {@link SwscaleConverter} the video
 * path uses. A decoder never allocates for a picture much larger than its header says: the header
 * is read first ({@link ImageHeader}), the codec's {@code max_pixels} is set to its size plus the
 * alignment FFmpeg adds, and a decoded picture of another size is refused.
 *
 * <p>Not thread-safe: one per worker thread. Owns its codec contexts, packet buffer and frame;
 * {@link #close()} frees them. A picture is valid until the next {@link #decode} or the close.
 */
public final class ImageDecoder implements AutoCloseable {
  /** The largest image side decoded: above any camera (feature sides are at most 8192). */
  static final int MAX_SIDE = 16384;

  /** FFmpeg's {@code AV_FRAME_FLAG_CORRUPT} (a macro the bindings leave out). */
  private static final int FRAME_FLAG_CORRUPT = 1;

  private final Map<ImageHeader.Format, AVCodecContext> contexts =
      new EnumMap<>(ImageHeader.Format.class);
  private final AVPacket packet = av_packet_alloc();
  private final AVFrame frame = av_frame_alloc();
  private final SwscaleConverter converter = new SwscaleConverter();
  private BytePointer buffer; // the packet's bytes plus FFmpeg's zeroed input padding
  private long capacity;
  private boolean hasPicture;

  /**
   * Decodes the image in {@code bytes[0, length)}.
   *
   * @param file the file holding the image, for errors
   * @param what which image it is, for errors ("observation.images.top frame 12")
   * @throws CorruptImageException when the bytes are no PNG or JPEG, or do not decode
   */
  public RawPicture decode(byte[] bytes, int length, String file, String what) {
    hasPicture = false;
    av_frame_unref(frame);
    ImageHeader header = ImageHeader.read(bytes, length);
    if (header == null) {
      throw new CorruptImageException(
          file, what + ": the " + length + " bytes are neither a PNG nor a JPEG image");
    }
    if (header.width() < 1
        || header.height() < 1
        || header.width() > MAX_SIDE
        || header.height() > MAX_SIDE) {
      // A header is the file's word: bounded before FFmpeg allocates anything for it.
      throw new CorruptImageException(
          file,
          what
              + ": the "
              + header.format()
              + " header gives a size of "
              + header.width()
              + "x"
              + header.height()
              + " (sides must be 1.."
              + MAX_SIDE
              + ")");
    }
    if (header.format() == ImageHeader.Format.JPEG
        && ImageStructure.isFourComponentJpeg(bytes, length)) {
      throw new UnsupportedVideoException(
          file,
          what
              + ": a 4-component (CMYK or YCCK) JPEG; robostream decodes grayscale and YCbCr"
              + " JPEGs: convert the images to RGB when writing the dataset");
    }
    String broken = ImageStructure.problem(header.format(), bytes, length);
    if (broken != null) {
      // Refused before FFmpeg, which would conceal it: a made-up picture is silently wrong data.
      throw new CorruptImageException(file, what + ": " + broken);
    }
    AVCodecContext context = context(header.format(), file);
    // FFmpeg checks the aligned size it allocates (width to the stride alignment, up to 64; JPEG's
    // height to whole MCUs, up to 32 rows): measured, the exact w*h refuses a 40x24 image.
    context.max_pixels(((long) header.width() + 64) * ((long) header.height() + 64));
    fill(bytes, length);
    int rc = avcodec_send_packet(context, packet);
    if (rc >= 0) {
      rc = avcodec_receive_frame(context, frame);
    }
    if (rc < 0) {
      throw new CorruptImageException(
          file,
          what
              + ": cannot decode the "
              + header.format()
              + " image ("
              + length
              + " bytes): "
              + FfmpegErrors.describe(rc));
    }
    if (frame.decode_error_flags() != 0 || (frame.flags() & FRAME_FLAG_CORRUPT) != 0) {
      throw new CorruptImageException(
          file,
          what
              + ": the "
              + header.format()
              + " image ("
              + length
              + " bytes) decodes only with errors concealed");
    }
    if (frame.width() != header.width() || frame.height() != header.height()) {
      throw new CorruptImageException(
          file,
          what
              + ": decoded "
              + frame.width()
              + "x"
              + frame.height()
              + " but the image header says "
              + header.width()
              + "x"
              + header.height());
    }
    hasPicture = true;
    long[] planes = new long[4];
    int[] strides = new int[4];
    for (int i = 0; i < 4; i++) {
      BytePointer plane = frame.data(i);
      planes[i] = plane == null ? 0 : plane.address();
      strides[i] = frame.linesize(i);
    }
    return new RawPicture(
        planes, strides, frame.width(), frame.height(), frame.format(), color(frame));
  }

  /** Converts the picture of the last {@link #decode} to RGB24 in {@code layout} at {@code dst}. */
  public void convertCurrent(long dst, FrameLayout layout) {
    if (!hasPicture) {
      throw new IllegalStateException("no decoded image");
    }
    converter.convert(
        frame,
        color(frame),
        new Slot(dst, frame.width(), frame.height(), layout, FrameSamples.RGB_UINT8));
  }

  /** JPEG's YCbCr is full-range BT.601 (JFIF) unless the frame says otherwise; PNG is RGB. */
  private static ColorSpec color(AVFrame frame) {
    return ColorSpec.ofFrame(frame, null, false);
  }

  /**
   * The open decoder for {@code format}. PNG gets a new one per image: FFmpeg's png decoder keeps
   * the last row of the previous image as the row above the next image's first one (measured: every
   * image after the first decoded wrong, also after {@code avcodec_flush_buffers}), while PNG's
   * filters need zeros there. Opening one costs microseconds against the image's inflate.
   */
  private AVCodecContext context(ImageHeader.Format format, String file) {
    AVCodecContext context = contexts.get(format);
    if (context != null && format == ImageHeader.Format.PNG) {
      contexts.remove(format);
      avcodec_free_context(context);
      context = null;
    }
    if (context != null) {
      return context;
    }
    AVCodec codec =
        avcodec_find_decoder(
            format == ImageHeader.Format.PNG ? AV_CODEC_ID_PNG : AV_CODEC_ID_MJPEG);
    if (codec == null || codec.isNull()) {
      throw new UnsupportedVideoException(file, "this FFmpeg has no " + format + " decoder");
    }
    context = avcodec_alloc_context3(codec);
    context.thread_count(1); // one image per call on a worker thread: no codec threads
    // Strict: a damaged bitstream is an error, not a picture with the damage concealed.
    context.err_recognition(AV_EF_EXPLODE | AV_EF_CRCCHECK | AV_EF_BITSTREAM | AV_EF_BUFFER);
    int rc = avcodec_open2(context, codec, (AVDictionary) null);
    if (rc < 0) {
      avcodec_free_context(context);
      throw new UnsupportedVideoException(
          file, "cannot open FFmpeg's " + format + " decoder: " + FfmpegErrors.describe(rc));
    }
    contexts.put(format, context);
    return context;
  }

  /** Points the packet at a copy of the bytes followed by the zeroed padding FFmpeg reads over. */
  private void fill(byte[] bytes, int length) {
    long needed = (long) length + AV_INPUT_BUFFER_PADDING_SIZE;
    if (needed > capacity) {
      if (buffer != null) {
        av_free(buffer);
      }
      Pointer p = av_malloc(needed);
      if (p == null || p.isNull()) {
        throw new OutOfMemoryError("cannot allocate " + needed + " bytes for an image");
      }
      buffer = new BytePointer(p).capacity(needed);
      capacity = needed;
    }
    buffer.position(0).put(bytes, 0, length);
    for (int i = 0; i < AV_INPUT_BUFFER_PADDING_SIZE; i++) {
      buffer.put(length + i, (byte) 0);
    }
    packet.data(buffer).size(length);
  }

  @Override
  public void close() {
    contexts.values().forEach(c -> avcodec_free_context(c));
    contexts.clear();
    av_frame_free(frame);
    packet.data(null).size(0);
    av_packet_free(packet);
    if (buffer != null) {
      av_free(buffer);
      buffer = null;
    }
    converter.close();
  }
}
