package org.robostream.video;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_AV1;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;
import org.robostream.nativecore.Av1Decoder;
import org.robostream.nativecore.NativeCore;
import org.robostream.source.ByteSource;
import org.robostream.source.LocalFileByteSource;
import org.robostream.source.UnreadableFileException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frame-exact decoding of one video file: open through a {@link ByteSource}, read the stream's
 * timing from its packets (no decoding), then decode the frames nearest to a list of timestamps
 * straight into a caller's {@link FrameDestination} (a column of a pooled frame batch, which
 * {@code arrow.FrameBatch.decode} makes in one call, or a {@link HostFrameBuffer}).
 *
 * <p>Exactness: each query gets the frame whose pts is nearest to it, and a query farther than
 * {@code toleranceSeconds} from every frame is a {@link FrameTimestampException}. Frames are
 * located by pts from the container (never by average fps), so variable frame rate is exact.
 *
 * <p>Planning: one call's queries are sorted and de-duplicated; each GOP costs at most one seek,
 * and a decoder already positioned before the target inside the same GOP (or right before the
 * target's GOP) continues without seeking. {@link #stats()} counts frames decoded versus
 * delivered (decode amplification).
 *
 * <p>Threading: <b>not thread-safe</b>. Use one decoder per worker thread (a
 * {@link DecoderCache} per worker). Ownership: the decoder owns its source, demuxer and codec
 * state; {@link #close()} releases them and is idempotent.
 */
public final class VideoDecoder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(VideoDecoder.class);
  private static final AtomicBoolean LIBAOM_WARNING_LOGGED = new AtomicBoolean();

  private final String file;
  private final VideoDecoderOptions options;
  private final Demuxer demuxer;
  private final FrameIndex index;
  private final FrameBackend backend;
  private final VideoStreamInfo info;

  // Decoder position. nextPacket is the decode-order index of the next packet to be read.
  private int nextPacket;
  private boolean resyncAfterSeek;
  private int lastOutputFrame = -1;
  private int continuousFromGop; // GOP whose keyframe the decoder last started from
  private boolean drained;
  private boolean closed;

  private long framesDecoded;
  private long framesDelivered;
  private long seeks;
  private long packetsRead;
  private String cpuFallbackReason;

  private VideoDecoder(Demuxer demuxer, VideoDecoderOptions options, long sizeBytes,
      FrameIndex knownIndex) {
    this.demuxer = demuxer;
    this.file = demuxer.file();
    this.options = options;
    checkFrameSize(demuxer);
    this.index = knownIndex != null ? knownIndex : demuxer.scanIndex();
    this.backend = createBackend(file, demuxer.stream(), options);
    this.info = describe(sizeBytes);
    this.resyncAfterSeek = true;
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
   * Opens a video over {@code source}, reusing the frame table of {@code sibling} (an open
   * decoder of the same file and size, or null) instead of scanning every packet again: opening
   * a second reader of a large shared file then costs only its headers.
   */
  public static VideoDecoder open(ByteSource source, VideoDecoderOptions options,
      VideoDecoder sibling) {
    return open(source, options,
        sibling == null || sibling.closed ? null : sibling.frameTable());
  }

  /**
   * Opens a video over {@code source} with a frame table built earlier for the same file and
   * size (possibly on another thread), or null to scan the packets.
   */
  public static VideoDecoder open(ByteSource source, VideoDecoderOptions options,
      FrameTable known) {
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
      FrameIndex index = known != null && known.describes(source.name(), size) ? known.index
          : null;
      return new VideoDecoder(demuxer, options, size, index);
    } catch (RuntimeException e) {
      demuxer.close();
      throw e;
    }
  }

  /** Larger frames are either damaged headers or far beyond robot camera sizes. */
  static final int MAX_DIMENSION = 8192;

  private static void checkFrameSize(Demuxer demuxer) {
    AVCodecParameters p = demuxer.stream().codecpar();
    if (p.width() <= 0 || p.height() <= 0 || p.width() > MAX_DIMENSION
        || p.height() > MAX_DIMENSION) {
      throw new UnsupportedVideoException(demuxer.file(), "frame size " + p.width() + "x"
          + p.height() + " is outside 1.." + MAX_DIMENSION);
    }
  }

  /**
   * NVDEC when asked for and able to decode this file; the CPU otherwise. A file NVDEC cannot
   * decode (AV1 on Hopper, a profile, a size) falls back with a warning once per file and is
   * reported by {@link #cpuFallbackReason()}; an unusable GPU is a
   * {@link org.robostream.GpuUnavailableException}.
   */
  private FrameBackend createBackend(String file, AVStream stream, VideoDecoderOptions options) {
    AVCodecParameters parameters = stream.codecpar();
    if (options.cudaDevice() >= 0) {
      int device = options.cudaDevice();
      String unusable = org.robostream.nativecore.Cuda.nvdecUnavailabilityCause(device);
      if (unusable != null) {
        throw new org.robostream.GpuUnavailableException(device, unusable, file
            + ": NVDEC decoding on cuda:" + device + " is unavailable: " + unusable);
      }
      String reason = NvdecBackend.unsupportedReason(parameters, device);
      if (reason == null) {
        return NvdecBackend.open(file, parameters, stream.time_base(), device,
            options.lowLatency());
      }
      cpuFallbackReason = reason;
      LOG.warn("{}: decoding on the CPU: {}", file, reason);
    }
    return createCpuBackend(file, parameters, options);
  }

  private static FrameBackend createCpuBackend(String file, AVCodecParameters parameters,
      VideoDecoderOptions options) {
    if (parameters.codec_id() != AV_CODEC_ID_AV1) {
      return new AvcodecBackend(file, parameters, null, options.threads(), options.converter());
    }
    switch (options.av1Backend()) {
      case DAV1D -> {
        if (!Av1Decoder.isAvailable()) {
          throw new UnsupportedVideoException(file,
              "dav1d was requested for AV1 but is unavailable: " + Av1Decoder.unavailabilityCause());
        }
        return new Dav1dBackend(file, parameters, options.threads(), options.lowLatency(),
            options.converter());
      }
      case LIBAOM -> {
        return new AvcodecBackend(file, parameters, "libaom-av1", options.threads(),
            options.converter());
      }
      default -> {
        if (Av1Decoder.isAvailable()) {
          return new Dav1dBackend(file, parameters, options.threads(), options.lowLatency(),
            options.converter());
        }
        if (LIBAOM_WARNING_LOGGED.compareAndSet(false, true)) {
          LOG.warn("dav1d unavailable ({}); decoding AV1 with libaom-av1, which is 1.5-3x slower."
              + " Install libdav1d6 for full speed.", Av1Decoder.unavailabilityCause());
        }
        return new AvcodecBackend(file, parameters, "libaom-av1", options.threads(),
            options.converter());
      }
    }
  }

  private VideoStreamInfo describe(long sizeBytes) {
    AVStream stream = demuxer.stream();
    AVCodecParameters p = stream.codecpar();
    String codec = avcodec.avcodec_get_name(p.codec_id()).getString();
    int pixelFormat = ExtradataPixelFormat.of(p);
    BytePointer pixName = pixelFormat < 0 ? null : avutil.av_get_pix_fmt_name(pixelFormat);
    BytePointer spaceName = avutil.av_color_space_name(p.color_space());
    BytePointer rangeName = avutil.av_color_range_name(p.color_range());
    int frames = index.frameCount();
    double first = index.frameSeconds(0);
    double last = index.frameSeconds(frames - 1);
    // The container's duration of the last frame; the gap before it only where none is stored
    // (on variable frame rate that gap can be several periods).
    double lastDuration = index.lastFrameDurationSeconds() > 0 ? index.lastFrameDurationSeconds()
        : frames > 1 ? last - index.frameSeconds(frames - 2) : 0.0;
    double fps = stream.avg_frame_rate().den() != 0 && stream.avg_frame_rate().num() != 0
        ? stream.avg_frame_rate().num() / (double) stream.avg_frame_rate().den()
        : (frames > 1 ? (frames - 1) / (last - first) : 0.0);
    return new VideoStreamInfo(file, codec, p.width(), p.height(),
        pixName == null || pixName.isNull() ? "unknown" : pixName.getString(),
        stream.time_base().num(), stream.time_base().den(), fps, frames,
        last - first + lastDuration, first, last, index.keyframeSeconds(),
        spaceName == null || spaceName.isNull() ? "unknown" : spaceName.getString(),
        rangeName == null || rangeName.isNull() ? "unknown" : rangeName.getString(),
        sizeBytes);
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
    return new DecodeStats(framesDecoded, framesDelivered, seeks, packetsRead, demuxer.bytesRead());
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
    return execute(DecodePlan.resolve(index, timestampsSeconds, options.toleranceSeconds(), file),
        destination);
  }

  /**
   * Decodes frames by presentation index (0 = first frame), any order, repeats allowed, into
   * {@code destination}: request i goes to slot i. For callers that know a frame's position, such
   * as episodes inside concatenated files (DESIGN.md §4).
   *
   * @throws IllegalArgumentException when an index is outside the stream; nothing is decoded then
   */
  public DecodeResult decodeFrames(int[] frameIndices, FrameDestination destination) {
    ensureOpen();
    checkDestination(destination);
    return execute(DecodePlan.ofFrames(index, frameIndices, file), destination);
  }

  /**
   * Decodes frames by presentation index like {@link #decodeFrames(int[], FrameDestination)} but
   * hands each request's picture to {@code sink} unconverted (planes valid only during the call).
   */
  public DecodeResult decodeFrames(int[] frameIndices, PictureSink sink) {
    ensureOpen();
    return execute(DecodePlan.ofFrames(index, frameIndices, file),
        new SinkDestination(info.width(), info.height(), sink));
  }

  /** Like {@link #decode(double[], FrameDestination)}, handing pictures to {@code sink}. */
  public DecodeResult decode(double[] timestampsSeconds, PictureSink sink) {
    ensureOpen();
    return execute(DecodePlan.resolve(index, timestampsSeconds, options.toleranceSeconds(), file),
        new SinkDestination(info.width(), info.height(), sink));
  }

  /** Marks a decode whose frames go to a {@link PictureSink} instead of being converted. */
  private record SinkDestination(int width, int height, PictureSink sink)
      implements FrameDestination {
    @Override
    public FrameLayout layout() {
      return FrameLayout.HWC;
    }

    @Override
    public long slotAddress(int request) {
      throw new UnsupportedOperationException("pictures go to a sink");
    }
  }

  private void checkDestination(FrameDestination destination) {
    if (destination.width() != info.width() || destination.height() != info.height()) {
      throw new IllegalArgumentException("destination is " + destination.width() + "x"
          + destination.height() + " but " + file + " is " + info.width() + "x" + info.height());
    }
    if (destination.onDevice() != decodesOnGpu()) {
      throw new IllegalArgumentException(file + " decodes " + (decodesOnGpu()
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

  private DecodeResult execute(DecodePlan plan, FrameDestination destination) {
    double[] pts = new double[plan.requestCount()];
    long[] frames = new long[plan.requestCount()];
    boolean[] done = new boolean[plan.targetCount()];
    RuntimeException failure = null;
    try {
      for (int t = 0; t < plan.targetCount(); t++) {
        if (!done[t]) {
          decodeTarget(plan, t, destination, done, pts, frames);
        }
      }
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    } finally {
      if (decodesOnGpu()) {
        try {
          releaseGpuSession();
        } catch (RuntimeException e) {
          if (failure == null) {
            throw e;
          }
          failure.addSuppressed(e); // the decode error is the one to report
        }
      }
    }
    return new DecodeResult(pts, frames);
  }

  /**
   * Gives the NVDEC decoder back to the GPU's pool at the end of every call. A GPU has a few
   * decode engines and the pool caps concurrent sessions (ROBOSTREAM_NVDEC_SESSIONS, 8): if every
   * open decoder kept one between calls, a loader with more live streams than sessions would
   * wait for itself. The cost is a seek at the start of the next call (no wasted decoding when
   * that call starts on a GOP boundary, which the loader arranges).
   */
  private void releaseGpuSession() {
    backend.flush();
    lastOutputFrame = -1;
    continuousFromGop = Integer.MAX_VALUE; // nothing to continue: the next target seeks
    drained = false;
  }

  /**
   * The GOP whose keyframe decoding {@code frameIndex} starts from (leading pictures of open
   * GOPs belong to the previous one): frames with the same value are decoded in one pass, and a
   * frame whose value differs from its predecessor's starts a fresh pass with no wasted work.
   */
  public int seekGopOf(int frameIndex) {
    if (frameIndex < 0 || frameIndex >= index.frameCount()) {
      throw new IllegalArgumentException("frame " + frameIndex + " outside " + file + " ("
          + index.frameCount() + " frames)");
    }
    return index.seekGop(frameIndex);
  }

  private void decodeTarget(DecodePlan plan, int t, FrameDestination dst, boolean[] done,
      double[] pts, long[] frames) {
    int frame = plan.target(t);
    int seekGop = index.seekGop(frame);
    boolean retried = false;
    if (!canContinueTo(frame)) {
      seek(seekGop);
    }
    while (!done[t]) {
      while (backend.receive()) {
        framesDecoded++;
        int out = index.frameWithPts(backend.currentPts());
        if (out < 0) {
          continue; // a frame the container does not present (e.g. before an edit list start)
        }
        lastOutputFrame = out;
        int position = plan.targetPosition(out);
        if (position >= 0 && !done[position]) {
          deliver(plan, position, out, dst, pts, frames);
          done[position] = true;
        }
        if (out >= frame) {
          break;
        }
      }
      if (done[t]) {
        return;
      }
      boolean missed = lastOutputFrame >= frame;
      if (!missed) {
        AVPacket packet = drained ? null : readPacket();
        if (packet != null) {
          backend.send(packet);
          continue;
        }
        if (!drained) {
          backend.drain();
          drained = true;
          continue;
        }
        missed = true;
      }
      // The decoder passed the target (or ended) without producing it: start one GOP earlier
      // once, which covers streams whose GOP structure the packet flags do not show.
      if (retried || seekGop == 0) {
        throw new CorruptVideoException(file, "decoder produced no frame for pts "
            + index.frameSeconds(frame) + " s (frame " + frame + ")");
      }
      retried = true;
      seekGop--;
      seek(seekGop);
    }
  }

  /**
   * Whether decoding on from the current position reaches {@code frame} without wasted work: the
   * decoder has decoded continuously since a keyframe at or before the frame's GOP, has not
   * output the frame yet, and is inside that GOP (or the GOP starts with the next packet).
   */
  private boolean canContinueTo(int frame) {
    // A drained decoder still hands out the frames it holds, so draining does not force a seek.
    if (lastOutputFrame >= frame) {
      return false;
    }
    int gop = index.seekGop(frame);
    if (gop < continuousFromGop) {
      return false;
    }
    int current = nextPacket > 0
        ? Math.max(continuousFromGop, index.gopOfPacket(nextPacket - 1))
        : continuousFromGop;
    if (gop <= current) {
      return true;
    }
    return gop == current + 1 && nextPacket == index.gopStartPacket(gop);
  }

  private void seek(int gop) {
    demuxer.seekToGop(index, gop);
    backend.flush();
    seeks++;
    drained = false;
    lastOutputFrame = -1;
    nextPacket = index.gopStartPacket(gop);
    continuousFromGop = gop;
    resyncAfterSeek = true;
  }

  private AVPacket readPacket() {
    while (true) {
      AVPacket packet = demuxer.next();
      if (packet == null) {
        nextPacket = index.packetCount();
        return null;
      }
      if (packet.size() <= 0) {
        continue;
      }
      if (resyncAfterSeek) {
        int actual = index.packetWithDts(Demuxer.dtsOf(packet));
        if (actual >= 0) {
          nextPacket = actual;
        }
        resyncAfterSeek = false;
      }
      nextPacket++;
      packetsRead++;
      return packet;
    }
  }

  private void deliver(DecodePlan plan, int position, int frame, FrameDestination dst,
      double[] pts, long[] frames) {
    if (backend.currentWidth() != dst.width() || backend.currentHeight() != dst.height()) {
      throw new UnsupportedVideoException(file, "frame " + frame + " is "
          + backend.currentWidth() + "x" + backend.currentHeight()
          + " but the stream declares " + dst.width() + "x" + dst.height()
          + " (size changes inside a stream are not supported)");
    }
    int[] requests = plan.requestsOf(position);
    if (dst instanceof SinkDestination sink) {
      RawPicture picture = backend.currentPicture();
      double seconds = index.frameSeconds(frame);
      for (int request : requests) {
        sink.sink().accept(request, picture, seconds, frame);
        pts[request] = seconds;
        frames[request] = frame;
      }
      framesDelivered += requests.length;
      return;
    }
    backend.convertCurrent(dst.slotAddress(requests[0]), dst.layout());
    double seconds = index.frameSeconds(frame);
    for (int i = 0; i < requests.length; i++) {
      int request = requests[i];
      if (i > 0) {
        dst.copySlot(request, requests[0]); // in device memory for NVDEC destinations
      }
      pts[request] = seconds;
      frames[request] = frame;
      dst.delivered(request, seconds, frame);
    }
    framesDelivered += requests.length;
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
