package org.robostream.codec;

import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_decoder;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_decoder_by_name;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_flush_buffers;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_open2;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_to_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_receive_frame;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_send_packet;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV422P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV444P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ420P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ422P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ444P;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_unref;

import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.global.avcodec;
import org.robostream.NativeException;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeStatus;
import org.robostream.video.ColorConverterKind;
import org.robostream.video.CorruptVideoException;
import org.robostream.video.FrameSamples;
import org.robostream.video.UnsupportedVideoException;

/**
 * FFmpeg avcodec decoding (H.264, HEVC, MPEG-4 Part 2, VP9, and libaom-av1 as the AV1 fallback),
 * converting with libyuv or swscale. Not thread-safe: one per decoder.
 */
final class AvcodecBackend implements FrameBackend {
  private static final int AVERROR_EAGAIN = -11;
  // FF_THREAD_FRAME and FF_THREAD_SLICE of avcodec.h (not exported by the JavaCPP preset).
  private static final int FF_THREAD_FRAME = 1;
  private static final int FF_THREAD_SLICE = 2;

  private final String file;
  private final ColorConverterKind converterKind;
  private final ColorSpec.Matrix containerMatrix;
  private final boolean containerFullRange;
  private final String description;
  private AVCodecContext context;
  private AVFrame frame;
  private boolean hasFrame;
  private SwscaleConverter swscale;

  AvcodecBackend(
      String file,
      AVCodecParameters parameters,
      String decoderName,
      int threads,
      ColorConverterKind converterKind) {
    this.file = file;
    this.converterKind = converterKind;
    this.containerMatrix = ColorSpec.fromAvColorSpace(parameters.color_space());
    this.containerFullRange = ColorSpec.isFullRange(parameters.color_range());
    AVCodec codec =
        decoderName != null
            ? avcodec_find_decoder_by_name(decoderName)
            : avcodec_find_decoder(parameters.codec_id());
    String codecName = avcodec.avcodec_get_name(parameters.codec_id()).getString();
    if (codec == null || codec.isNull()) {
      throw new UnsupportedVideoException(
          file,
          "no decoder for codec "
              + codecName
              + (decoderName != null ? " (wanted " + decoderName + ")" : ""));
    }
    this.description = "avcodec " + codec.name().getString();
    context = avcodec_alloc_context3(codec);
    try {
      int rc = avcodec_parameters_to_context(context, parameters);
      if (rc < 0) {
        throw new CorruptVideoException(file, "bad codec parameters: " + FfmpegErrors.describe(rc));
      }
      context.thread_count(Math.max(0, threads));
      context.thread_type(FF_THREAD_FRAME | FF_THREAD_SLICE);
      rc = avcodec_open2(context, codec, (AVDictionary) null);
      if (rc < 0) {
        throw new UnsupportedVideoException(
            file, "cannot open " + description + ": " + FfmpegErrors.describe(rc));
      }
      frame = av_frame_alloc();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public void send(AVPacket packet) {
    int rc = avcodec_send_packet(context, packet);
    if (rc < 0 && rc != AVERROR_EAGAIN && rc != AVERROR_EOF) {
      throw new CorruptVideoException(
          file, "decoding failed at packet pts " + packet.pts() + ": " + FfmpegErrors.describe(rc));
    }
  }

  @Override
  public void drain() {
    int rc = avcodec_send_packet(context, null);
    if (rc < 0 && rc != AVERROR_EOF) {
      throw new CorruptVideoException(
          file, "draining the decoder failed: " + FfmpegErrors.describe(rc));
    }
  }

  @Override
  public boolean receive() {
    av_frame_unref(frame);
    hasFrame = false;
    int rc = avcodec_receive_frame(context, frame);
    if (rc == AVERROR_EAGAIN || rc == AVERROR_EOF) {
      return false;
    }
    if (rc < 0) {
      throw new CorruptVideoException(file, "decoding failed: " + FfmpegErrors.describe(rc));
    }
    hasFrame = true;
    return true;
  }

  @Override
  public long currentPts() {
    long pts = frame.best_effort_timestamp();
    return pts != AV_NOPTS_VALUE ? pts : frame.pts();
  }

  @Override
  public int width() {
    return frame.width();
  }

  @Override
  public int height() {
    return frame.height();
  }

  @Override
  public boolean onGpu() {
    return false;
  }

  @Override
  public boolean deep() {
    return PixelFormats.isDeep(frame.format());
  }

  @Override
  public RawPicture raw() {
    if (!hasFrame) {
      throw new IllegalStateException("no current frame");
    }
    long[] planes = new long[4];
    int[] strides = new int[4];
    for (int i = 0; i < 4; i++) {
      org.bytedeco.javacpp.BytePointer plane = frame.data(i);
      planes[i] = plane == null ? 0 : plane.address();
      strides[i] = frame.linesize(i);
    }
    return new RawPicture(
        planes, strides, frame.width(), frame.height(), frame.format(), currentColor());
  }

  private ColorSpec currentColor() {
    return ColorSpec.ofFrame(frame, containerMatrix, containerFullRange);
  }

  @Override
  public void convertInto(Slot slot) {
    long dst = slot.address();
    FrameSamples samples = slot.samples();
    if (!hasFrame) {
      throw new IllegalStateException("no current frame");
    }
    int format = frame.format();
    if (samples.isDepth()) {
      FrameBackend.requireUnscaled(file, "a depth map", frame.width(), frame.height(), slot);
      DepthSamples.requireDepthMap(file, format);
      DepthSamples.copy(raw(), dst, samples);
      return;
    }
    boolean unitFloats = samples.isFloat();
    ColorSpec color = currentColor();
    int chroma = libyuvChroma(format);
    // libyuv writes uint8 only: floats always come from swscale.
    if (chroma != 0 && converterKind == ColorConverterKind.LIBYUV && !unitFloats) {
      FrameBackend.requireUnscaled(file, "libyuv", frame.width(), frame.height(), slot);
      try {
        NativeStatus.check(
            NativeCore.rs_convert_yuv8(
                frame.data(0).address(),
                frame.linesize(0),
                frame.data(1).address(),
                frame.linesize(1),
                frame.data(2).address(),
                frame.linesize(2),
                frame.width(),
                frame.height(),
                chroma,
                color.matrix().nativeCode(),
                color.fullRange() ? 1 : 0,
                dst,
                slot.layout().nativeCode()),
            "colour conversion");
      } catch (NativeException e) {
        throw new CorruptVideoException(file, e.getMessage(), e);
      }
      return;
    }
    if (converterKind == ColorConverterKind.LIBYUV && !unitFloats) {
      throw new UnsupportedVideoException(
          file,
          "libyuv cannot convert pixel format "
              + org.bytedeco.ffmpeg.global.avutil.av_get_pix_fmt_name(format).getString());
    }
    if (swscale == null) {
      swscale = new SwscaleConverter();
    }
    try {
      swscale.convert(frame, color, slot);
    } catch (IllegalStateException e) {
      throw new UnsupportedVideoException(file, e.getMessage(), e);
    }
  }

  /** The RS_CHROMA_* code for 8-bit planar formats libyuv converts, else 0. */
  static int libyuvChroma(int format) {
    if (format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P) {
      return 420;
    }
    if (format == AV_PIX_FMT_YUV422P || format == AV_PIX_FMT_YUVJ422P) {
      return 422;
    }
    if (format == AV_PIX_FMT_YUV444P || format == AV_PIX_FMT_YUVJ444P) {
      return 444;
    }
    return 0;
  }

  @Override
  public void flush() {
    av_frame_unref(frame);
    hasFrame = false;
    avcodec_flush_buffers(context);
    // FFmpeg 8's HEVC decoder can still return a frame it had queued before the flush when the
    // stream was drained; such a frame belongs to the old position and must not surface after
    // a seek.
    while (avcodec_receive_frame(context, frame) == 0) {
      av_frame_unref(frame);
    }
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public void close() {
    if (frame != null) {
      av_frame_free(frame);
      frame = null;
    }
    if (context != null) {
      avcodec_free_context(context);
      context = null;
    }
    if (swscale != null) {
      swscale.close();
      swscale = null;
    }
  }
}
