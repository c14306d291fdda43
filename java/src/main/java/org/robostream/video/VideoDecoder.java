package org.robostream.video;

import java.nio.file.Path;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.global.avutil;
import org.robostream.nativecore.NativeCore;
import org.robostream.source.ByteSource;
import org.robostream.source.LocalFileByteSource;
import org.robostream.source.UnreadableFileException;

/**
 * Frame-exact decoding of one video file. Opening reads the container through a {@link ByteSource}
 * (a local file, or HTTP range reads of a Hub file) and the file's frame table: every packet's pts,
 * dts and key flag, taken from the container without decoding, or reused from another decoder of
 * the file ({@link FrameTable}, {@link FrameTables}). A call then decodes the frames nearest to a
 * list of timestamps, or the frames at a list of positions, converted to RGB straight into a
 * caller's {@link FrameDestination} (a column of a pooled frame batch, which {@code
 * arrow.FrameBatch.decode} makes in one call; a {@link HostFrameBuffer}), handed unconverted to a
 * {@link PictureSink}, or handed as a {@link DecodedPicture} to a {@link PictureReceiver} that
 * keeps or converts each one where it wants (the loader's frame devices).
 *
 * <p>Backends ({@link FrameBackends}): NVDEC when the options name a GPU and it can decode the
 * file, writing device destinations only ({@link #decodesOnGpu()}); otherwise FFmpeg's avcodec,
 * dav1d for AV1. A file NVDEC cannot decode decodes on the CPU and says why ({@link
 * #cpuFallbackReason()}).
 *
 * <p>Exactness: each query gets the frame whose pts is nearest to it, and a query farther than
 * {@code toleranceSeconds} from every frame is a {@link FrameTimestampException}. Frames are
 * located by pts from the container (never by average fps), so variable frame rate is exact.
 *
 * <p>Planning: one call's requests are sorted and de-duplicated ({@link DecodePlan}); each GOP
 * costs at most one seek, and a decoder already positioned before the target inside the same GOP
 * (or right before the target's GOP) continues without seeking ({@link DecodeCursor} keeps the
 * position and its rules). On NVDEC every call starts with a seek: the session goes back to the
 * GPU's pool at the end of each call. {@link #stats()} counts frames decoded versus delivered
 * (decode amplification).
 *
 * <p>Threading: <b>not thread-safe</b>. Use one decoder per worker thread (a {@link DecoderCache}
 * per worker). Ownership: the decoder owns its source, demuxer and codec state; {@link #close()}
 * releases them and is idempotent.
 */
public final class VideoDecoder implements AutoCloseable {
  private final String file;
  private final VideoDecoderOptions options;
  private final Demuxer demuxer;
  private final FrameIndex index;
  private final FrameBackend backend;
  private final String cpuFallbackReason;
  private final VideoStreamInfo info;
  private final DecodeCursor cursor;
  private boolean closed;

  private VideoDecoder(
      Demuxer demuxer, VideoDecoderOptions options, long sizeBytes, FrameIndex knownIndex) {
    this.demuxer = demuxer;
    this.file = demuxer.file();
    this.options = options;
    checkFrameSize(demuxer);
    this.index = knownIndex != null ? knownIndex : demuxer.scanIndex();
    FrameBackends.Opened opened = FrameBackends.open(file, demuxer.stream(), options);
    this.backend = opened.backend();
    this.cpuFallbackReason = opened.cpuFallbackReason();
    this.info = VideoStreamInfo.of(file, demuxer.stream(), index, sizeBytes);
    this.cursor =
        new DecodeCursor(
            file, demuxer, index, backend, info.width(), info.height(), deep(info.pixelFormat()));
  }

  /** Opens a local file with default options. */
  public static VideoDecoder open(Path file) {
    return open(file, VideoDecoderOptions.defaults());
  }

  public static VideoDecoder open(Path file, VideoDecoderOptions options) {
    return open(openLocal(file), options);
  }

  /** A local video's bytes; a file that cannot be opened is a {@link VideoNotFoundException}. */
  static ByteSource openLocal(Path file) {
    try {
      return LocalFileByteSource.open(file);
    } catch (UnreadableFileException e) {
      throw new VideoNotFoundException(e.file(), e.problem(), e.getCause());
    }
  }

  /**
   * Opens a video over {@code source}; the decoder owns the source from now on (also on failure,
   * when it is closed).
   */
  public static VideoDecoder open(ByteSource source, VideoDecoderOptions options) {
    return open(source, options, (FrameTable) null);
  }

  /**
   * Opens a video over {@code source}, reusing the frame table of {@code sibling} (an open decoder
   * of the same file and size, or null) instead of scanning every packet again: opening a second
   * reader of a large shared file then costs only its headers.
   */
  public static VideoDecoder open(
      ByteSource source, VideoDecoderOptions options, VideoDecoder sibling) {
    return open(source, options, sibling == null || sibling.closed ? null : sibling.frameTable());
  }

  /**
   * Opens a video over {@code source} with a frame table built earlier for the same file and size
   * (possibly on another thread), or null to scan the packets.
   */
  public static VideoDecoder open(
      ByteSource source, VideoDecoderOptions options, FrameTable known) {
    NativeCore.ensureLoaded();
    long size;
    try {
      size = source.size();
    } catch (java.io.IOException e) {
      closeQuietly(source);
      throw new VideoNotFoundException(source.name(), "cannot read size: " + e.getMessage(), e);
    }
    Demuxer demuxer = new Demuxer(source);
    try {
      FrameIndex index = known != null && known.describes(source.name(), size) ? known.index : null;
      return new VideoDecoder(demuxer, options, size, index);
    } catch (RuntimeException e) {
      demuxer.close();
      throw e;
    }
  }

  /** Larger frames are either damaged headers or far beyond robot camera sizes. */
  static final int MAX_DIMENSION = 8192;

  static void checkFrameSize(Demuxer demuxer) {
    AVCodecParameters p = demuxer.stream().codecpar();
    if (p.width() <= 0
        || p.height() <= 0
        || p.width() > MAX_DIMENSION
        || p.height() > MAX_DIMENSION) {
      throw new UnsupportedVideoException(
          demuxer.file(),
          "frame size " + p.width() + "x" + p.height() + " is outside 1.." + MAX_DIMENSION);
    }
  }

  /**
   * A hint that {@code frame} (presentation index) will be decoded soon: the source is told the
   * byte position its GOP starts at, so a remote file can fetch it while other files are being
   * decoded. Decodes nothing; a frame outside the stream is clamped.
   */
  public void prefetch(int frame) {
    ensureOpen();
    long position = frameTable().seekPosition(frame);
    if (position >= 0) {
      demuxer.prefetch(position);
    }
  }

  /** This file's frame table, to open more decoders of it without scanning again. */
  public FrameTable frameTable() {
    return new FrameTable(index, file, info.sizeBytes());
  }

  /** Stream information from the container (no decoding happened to produce it). */
  public VideoStreamInfo info() {
    return info;
  }

  public String file() {
    return file;
  }

  /** The codec backend in use, e.g. "dav1d 1.0.0" or "avcodec h264". */
  public String backendDescription() {
    return backend.description();
  }

  /** pts (seconds) of every frame in presentation order. */
  public double[] framePtsSeconds() {
    double[] out = new double[index.frameCount()];
    for (int i = 0; i < out.length; i++) {
      out[i] = index.frameSeconds(i);
    }
    return out;
  }

  public DecodeStats stats() {
    return cursor.stats();
  }

  /**
   * Decodes the frames nearest to {@code timestampsSeconds} (any order, repeats allowed) into
   * {@code destination}: request i goes to slot i.
   *
   * @throws FrameTimestampException when a query has no frame within the tolerance; nothing is
   *     decoded then
   * @throws VideoException for corrupt or unsupported content
   */
  public DecodeResult decode(double[] timestampsSeconds, FrameDestination destination) {
    ensureOpen();
    checkDestination(destination);
    return cursor.decode(planTimes(timestampsSeconds), new SlotWriting(destination));
  }

  /**
   * Decodes frames by presentation index (0 = first frame), any order, repeats allowed, into {@code
   * destination}: request i goes to slot i. For callers that know a frame's position, such as
   * episodes inside concatenated files (docs/DESIGN.md, "Semantics").
   *
   * @throws IllegalArgumentException when an index is outside the stream; nothing is decoded then
   */
  public DecodeResult decodeFrames(int[] frameIndices, FrameDestination destination) {
    ensureOpen();
    checkDestination(destination);
    return cursor.decode(planFrames(frameIndices), new SlotWriting(destination));
  }

  /**
   * Decodes frames by presentation index like {@link #decodeFrames(int[], FrameDestination)} but
   * hands each request's picture to {@code sink} unconverted (planes valid only during the call). A
   * picture NVDEC decoded has no host planes: use {@link #deliverFrames} for those.
   */
  public DecodeResult decodeFrames(int[] frameIndices, PictureSink sink) {
    return deliverFrames(frameIndices, planes(sink));
  }

  /** Like {@link #decode(double[], FrameDestination)}, handing pictures to {@code sink}. */
  public DecodeResult decode(double[] timestampsSeconds, PictureSink sink) {
    return deliver(timestampsSeconds, planes(sink));
  }

  /**
   * Decodes frames by presentation index (any order, repeats allowed) and hands each request's
   * picture to {@code receiver}, which keeps it as it is or converts it where it wants (host or,
   * for NVDEC, device memory): request i as i.
   *
   * @throws IllegalArgumentException when an index is outside the stream; nothing is decoded then
   */
  public DecodeResult deliverFrames(int[] frameIndices, PictureReceiver receiver) {
    ensureOpen();
    return cursor.decode(planFrames(frameIndices), receiver);
  }

  /**
   * Like {@link #deliverFrames}, for the frames nearest to {@code timestampsSeconds}.
   *
   * @throws FrameTimestampException when a query has no frame within the tolerance; nothing is
   *     decoded then
   */
  public DecodeResult deliver(double[] timestampsSeconds, PictureReceiver receiver) {
    ensureOpen();
    return cursor.decode(planTimes(timestampsSeconds), receiver);
  }

  private static PictureReceiver planes(PictureSink sink) {
    return (request, picture, seconds, frame) ->
        sink.accept(request, picture.raw(), seconds, frame);
  }

  /** Whether a stream of the pixel format FFmpeg names so has more than 8 bits a sample. */
  private static boolean deep(String pixelFormatName) {
    int code = pixelFormatName == null ? -1 : avutil.av_get_pix_fmt(pixelFormatName);
    return code >= 0 && PixelFormats.isDeep(code);
  }

  private DecodePlan planTimes(double[] timestampsSeconds) {
    return DecodePlan.resolve(index, timestampsSeconds, options.toleranceSeconds(), file);
  }

  private DecodePlan planFrames(int[] frameIndices) {
    return DecodePlan.ofFrames(index, frameIndices, file);
  }

  /**
   * A destination of another size than the stream gets each frame scaled by the conversion that
   * writes it (swscale on the CPU, the colour kernel on NVDEC; both bilinear); refused where that
   * conversion cannot scale: depth maps (values must not be interpolated) and the libyuv converter.
   */
  private void checkDestination(FrameDestination destination) {
    boolean scaled = destination.width() != info.width() || destination.height() != info.height();
    String cannotScale =
        destination.samples().isDepth()
            ? "depth maps are never scaled"
            : !decodesOnGpu() && options.converter() == ColorConverterKind.LIBYUV
                ? "the libyuv converter (VideoDecoderOptions.withConverter(LIBYUV)) cannot"
                    + " scale; use ColorConverterKind.AUTO or SWSCALE, which scale in the"
                    + " same swscale call that converts"
                : null;
    if (scaled && cannotScale != null) {
      throw new IllegalArgumentException(
          "destination is "
              + destination.width()
              + "x"
              + destination.height()
              + " but "
              + file
              + " is "
              + info.width()
              + "x"
              + info.height()
              + ": "
              + cannotScale);
    }
    if (destination.onDevice() != decodesOnGpu()) {
      throw new IllegalArgumentException(
          file
              + " decodes "
              + (decodesOnGpu()
                  ? "with NVDEC into device memory: give it a column of a CUDA FrameBatchBuilder"
                  : "on the CPU into host memory: give it a host destination"));
    }
  }

  /** Whether frames decode with NVDEC (into device destinations). */
  public boolean decodesOnGpu() {
    return backend instanceof NvdecBackend;
  }

  /** Why a file asked to decode with NVDEC decodes on the CPU; null otherwise. */
  public String cpuFallbackReason() {
    return cpuFallbackReason;
  }

  /** The GPU whose NVDEC decodes this file ({@code cuda:N}), or -1 when it decodes on the CPU. */
  public int cudaDevice() {
    return decodesOnGpu() ? options.cudaDevice() : -1;
  }

  /** The CUDA stream NVDEC conversions run on (0 on the CPU): for a batch's completion event. */
  public long cudaStream() {
    return backend instanceof NvdecBackend n ? n.cudaStream() : 0;
  }

  /**
   * The GOP whose keyframe decoding {@code frameIndex} starts from (leading pictures of open GOPs
   * belong to the previous one): frames with the same value are decoded in one pass, and a frame
   * whose value differs from its predecessor's starts a fresh pass with no wasted work.
   */
  public int seekGopOf(int frameIndex) {
    if (frameIndex < 0 || frameIndex >= index.frameCount()) {
      throw new IllegalArgumentException(
          "frame " + frameIndex + " outside " + file + " (" + index.frameCount() + " frames)");
    }
    return index.seekGop(frameIndex);
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("decoder for " + file + " is closed");
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      backend.close();
    } finally {
      demuxer.close();
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // The original failure is the one worth reporting.
    }
  }
}
