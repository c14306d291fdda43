package org.robostream.codec;

import java.nio.file.Path;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.robostream.nativecore.NativeCore;
import org.robostream.source.ByteSource;
import org.robostream.source.LocalFileByteSource;
import org.robostream.source.UnreadableFileException;
import org.robostream.video.ColorConverterKind;
import org.robostream.video.DecodeStats;
import org.robostream.video.UnsupportedVideoException;
import org.robostream.video.VideoDecoderOptions;
import org.robostream.video.VideoNotFoundException;
import org.robostream.video.VideoStreamInfo;

/**
 * Frame-exact decoding of one video file. Opening reads the container through a {@link ByteSource}
 * and builds (or reuses, {@link FrameTables}) the frame table: every packet's pts, dts and key
 * flag. A call decodes the frames nearest to timestamps, or at positions, into a {@link
 * FrameDestination}'s slots, or hands each as a {@link DecodedPicture} to a {@link
 * PictureReceiver}.
 *
 * <p>Frames are found by pts, never by average fps: a query farther than {@code toleranceSeconds}
 * from every frame is a {@link FrameTimestampException}. One call's requests cost at most one seek
 * per GOP ({@link DecodePlan}, {@link DecodeCursor}). Backends ({@link FrameBackends}): NVDEC when
 * asked and able (device destinations only), else avcodec, dav1d for AV1.
 *
 * <p>Not thread-safe: one per worker thread. {@link #close()} (idempotent) frees what it owns.
 */
public final class Decoder implements AutoCloseable {
  private final String file;
  private final VideoDecoderOptions options;
  private final Demuxer demuxer;
  private final FrameIndex index;
  private final FrameBackend backend;
  private final String cpuFallbackReason;
  private final VideoStreamInfo info;
  private final DecodeCursor cursor;
  private boolean closed;

  private Decoder(
      Demuxer demuxer, VideoDecoderOptions options, long sizeBytes, FrameIndex knownIndex) {
    this.demuxer = demuxer;
    this.file = demuxer.file();
    this.options = options;
    checkFrameSize(demuxer);
    this.index = knownIndex != null ? knownIndex : demuxer.scanIndex();
    FrameBackends.Opened opened = FrameBackends.open(file, demuxer.stream(), options);
    this.backend = opened.backend();
    this.cpuFallbackReason = opened.cpuFallbackReason();
    this.info = index.streamInfo(file, demuxer.stream(), sizeBytes);
    this.cursor = new DecodeCursor(file, demuxer, index, backend, info.width(), info.height());
  }

  /** Opens a local file with default options. */
  public static Decoder open(Path file) {
    return open(file, VideoDecoderOptions.defaults());
  }

  public static Decoder open(Path file, VideoDecoderOptions options) {
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
  public static Decoder open(ByteSource source, VideoDecoderOptions options) {
    return open(source, options, (FrameTable) null);
  }

  /**
   * Opens a video over {@code source}, reusing the frame table of {@code sibling} (an open decoder
   * of the same file and size, or null) instead of scanning every packet again: opening a second
   * reader of a large shared file then costs only its headers.
   */
  public static Decoder open(ByteSource source, VideoDecoderOptions options, Decoder sibling) {
    return open(source, options, sibling == null || sibling.closed ? null : sibling.frameTable());
  }

  /**
   * Opens a video over {@code source} with a frame table built earlier for the same file and size
   * (possibly on another thread), or null to scan the packets.
   */
  public static Decoder open(ByteSource source, VideoDecoderOptions options, FrameTable known) {
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
      return new Decoder(demuxer, options, size, index);
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
    return cursor.decode(planTimes(timestampsSeconds), slotWriter(destination));
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
    return cursor.decode(planFrames(frameIndices), slotWriter(destination));
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

  /**
   * Delivers pictures into {@code destination}'s slots as {@link #decodeFrames(int[],
   * FrameDestination)} promises: each frame converted once, into the slot of its first request, and
   * copied into the slots of the requests that repeat it; every request reported {@link
   * FrameDestination#delivered}.
   */
  private static PictureReceiver slotWriter(FrameDestination destination) {
    long[] last = {-1, -1}; // the frame index and request of the last conversion
    return (request, picture, seconds, frame) -> {
      if (last[1] >= 0 && frame >= 0 && frame == last[0]) {
        destination.copySlot(request, (int) last[1]); // in device memory for NVDEC destinations
      } else {
        picture.convertInto(destination.slot(request));
        last[0] = frame;
        last[1] = request;
      }
      destination.delivered(request, seconds, frame);
    };
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
    return backend.onGpu();
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
    return backend.cudaStream();
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
