package org.robostream.codec;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_AV1;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_H264;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_HEVC;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_MPEG4;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_VP9;

import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVPixFmtDescriptor;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.ffmpeg.global.avutil;
import org.robostream.GpuUnavailableException;
import org.robostream.NativeException;
import org.robostream.nativecore.NvdecSession;
import org.robostream.video.FrameSamples;
import org.robostream.video.UnsupportedVideoException;

/**
 * NVDEC decoding of one stream: demuxed packets (H.264/HEVC through {@link AnnexBFilter}, AV1 and
 * VP9 as demuxed) go to a native {@link NvdecSession}; pictures are converted by the GPU colour
 * kernel straight into device slots (a column of a CUDA {@code FrameBatchBuilder}). The decode
 * planning above it is the CPU path's: sorted, de-duplicated, one seek per GOP.
 *
 * <p>Not thread-safe: owned by one {@link Decoder}.
 */
final class NvdecBackend implements FrameBackend {
  private final String file;
  private final int device;
  private final NvdecSession session;
  private final AnnexBFilter annexB;
  private final ColorSpec.Matrix containerMatrix;
  private final boolean containerFullRange;
  private final boolean deep; // more than 8 bits a sample, from the container
  // The core's RS_DTYPE_* values (robostream.h) for the colour kernel's output.
  private static final int RS_DTYPE_UINT8 = 0;
  private static final int RS_DTYPE_FLOAT32 = 1;

  private NvdecBackend(
      String file,
      int device,
      NvdecSession session,
      AnnexBFilter annexB,
      AVCodecParameters parameters) {
    this.file = file;
    this.device = device;
    this.session = session;
    this.annexB = annexB;
    this.containerMatrix = ColorSpec.fromAvColorSpace(parameters.color_space());
    this.containerFullRange = ColorSpec.isFullRange(parameters.color_range());
    this.deep = bitDepth(parameters) > 8;
  }

  /** The NVDEC codec of a stream, or -1 when NVDEC has none. */
  static int nvdecCodec(int avCodecId) {
    return switch (avCodecId) {
      case AV_CODEC_ID_H264 -> NvdecSession.H264;
      case AV_CODEC_ID_HEVC -> NvdecSession.HEVC;
      case AV_CODEC_ID_AV1 -> NvdecSession.AV1;
      case AV_CODEC_ID_VP9 -> NvdecSession.VP9;
      case AV_CODEC_ID_MPEG4 -> NvdecSession.MPEG4;
      default -> -1;
    };
  }

  /**
   * Null when NVDEC of {@code cuda:device} can decode the stream, else why not (no NVDEC codec,
   * cuvidGetDecoderCaps says no for this codec, bit depth or size, or CUDA is unusable).
   */
  static String unsupportedReason(AVCodecParameters p, int device) {
    String limit = pathLimitation(p);
    return limit != null
        ? limit
        : NvdecSession.unsupportedReason(
            device, nvdecCodec(p.codec_id()), bitDepth(p), p.width(), p.height());
  }

  /**
   * Why robostream's NVDEC path cannot take this stream whatever the GPU, or null. Decided from the
   * container before any packet: a 4:2:2 / 4:4:4 / monochrome file found out only by the sequence
   * callback would fail mid-decode instead of falling back to the CPU.
   */
  static String pathLimitation(AVCodecParameters p) {
    int codec = nvdecCodec(p.codec_id());
    if (codec < 0) {
      return "NVDEC has no decoder for this codec";
    }
    if (codec == NvdecSession.MPEG4) {
      // MP4 keeps MPEG-4 Part 2's VOL header in the extradata only, and the cuvid parser would
      // need it again after every seek; such files are rare in robot datasets.
      return "robostream's NVDEC path does not decode MPEG-4 Part 2 (its VOL header lives in the"
          + " container's extradata)";
    }
    if (p.width() % 2 != 0 || p.height() % 2 != 0) {
      // NV12 output surfaces (the display area) need even sizes; the SDK crops odd ones from a
      // larger target, which our colour kernel does not do.
      return "robostream's NVDEC path needs even frame sizes, and this stream is "
          + p.width()
          + "x"
          + p.height();
    }
    AVPixFmtDescriptor format = descriptor(p);
    if (format != null
        && !(format.nb_components() == 3
            && format.log2_chroma_w() == 1
            && format.log2_chroma_h() == 1)) {
      return "robostream's NVDEC path decodes 4:2:0 only, and this stream is "
          + avutil.av_get_pix_fmt_name(ExtradataPixelFormat.of(p)).getString();
    }
    return null;
  }

  /** Luma bit depth from the pixel format (the container's raw-sample field is often 0). */
  static int bitDepth(AVCodecParameters p) {
    AVPixFmtDescriptor format = descriptor(p);
    if (format != null) {
      return Math.max(8, format.comp(0).depth());
    }
    return p.bits_per_raw_sample() > 8 ? p.bits_per_raw_sample() : 8;
  }

  private static AVPixFmtDescriptor descriptor(AVCodecParameters p) {
    int pixelFormat = ExtradataPixelFormat.of(p);
    AVPixFmtDescriptor d = pixelFormat < 0 ? null : avutil.av_pix_fmt_desc_get(pixelFormat);
    return d == null || d.isNull() ? null : d;
  }

  static NvdecBackend open(
      String file,
      AVCodecParameters parameters,
      AVRational timeBase,
      int device,
      boolean lowLatency) {
    int codec = nvdecCodec(parameters.codec_id());
    NvdecSession session;
    try {
      session = new NvdecSession(device, codec, lowLatency);
    } catch (NativeException.LibraryUnavailable e) {
      throw new GpuUnavailableException(
          device, e.getMessage(), file + ": NVDEC unavailable: " + e.getMessage(), e);
    } catch (NativeException e) {
      throw new UnsupportedVideoException(file, "NVDEC unavailable: " + e.getMessage(), e);
    }
    try {
      return new NvdecBackend(
          file, device, session, AnnexBFilter.forStream(file, parameters, timeBase), parameters);
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
  }

  @Override
  public void send(AVPacket packet) {
    AVPacket p = annexB != null ? annexB.filter(packet) : packet;
    NativeDecoderCalls.send(
        file,
        "NVDEC rejected the packet at pts " + packet.pts(),
        () -> session.send(p.data().address(), p.size(), Demuxer.ptsOf(packet)));
  }

  @Override
  public void drain() {
    NativeDecoderCalls.run(file, session::drain);
  }

  @Override
  public boolean receive() {
    return NativeDecoderCalls.query(file, session::next);
  }

  @Override
  public long currentPts() {
    return session.currentPts();
  }

  @Override
  public int width() {
    return session.currentWidth();
  }

  @Override
  public int height() {
    return session.currentHeight();
  }

  /**
   * Writes RGB into a device slot on this backend's GPU: uint8, or float32 in [0, 1] computed by
   * the colour kernel from the surface's samples (16-bit P016 above 8 bits). A slot of a resize's
   * size gets the frame scaled bilinearly in the same pass. The core refuses a frame that would not
   * fit rather than write past the slot.
   */
  @Override
  public void convertInto(Slot slot) {
    FrameSamples samples = slot.samples();
    if (samples.isDepth()) {
      throw new UnsupportedVideoException(
          file, "depth maps are read on the CPU; NVDEC's colour kernel writes RGB only");
    }
    boolean unitFloats = samples.isFloat();
    ColorSpec color =
        ColorSpec.resolve(
            ColorSpec.Matrix.fromNative(session.currentMatrix()),
            containerMatrix,
            session.currentFullRange() || containerFullRange);
    NativeDecoderCalls.run(
        file,
        () ->
            session.convertCurrent(
                slot.address(),
                slot.bytes(),
                slot.width(),
                slot.height(),
                slot.layout().nativeCode(),
                unitFloats ? RS_DTYPE_FLOAT32 : RS_DTYPE_UINT8,
                color.matrix().nativeCode(),
                color.fullRange()));
  }

  @Override
  public boolean onGpu() {
    return true;
  }

  /** NVDEC's pictures have no host planes: the stream's bit depth decides. */
  @Override
  public boolean deep() {
    return deep;
  }

  /** NVDEC gives its session back to the GPU's pool after every call. */
  @Override
  public boolean keepsPositionBetweenCalls() {
    return false;
  }

  @Override
  public RawPicture raw() {
    throw new UnsupportedVideoException(
        file,
        "NVDEC pictures live on cuda:"
            + device
            + "; they are converted into device slots, not handed out as host planes");
  }

  @Override
  public void flush() {
    NativeDecoderCalls.run(file, session::flush);
    if (annexB != null) {
      annexB.reset();
    }
  }

  /** The CUDA stream the conversions run on (for a batch's completion event). */
  @Override
  public long cudaStream() {
    return session.stream();
  }

  @Override
  public String description() {
    return "nvdec cuda:" + device;
  }

  @Override
  public void close() {
    if (annexB != null) {
      annexB.close();
    }
    session.close();
  }
}
