package org.robostream.decode;

import java.nio.file.Path;
import java.util.function.Consumer;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.DType;
import org.robostream.arrow.FrameBatch;
import org.robostream.arrow.FrameBatchBuilder;
import org.robostream.codec.Decoder;
import org.robostream.source.ByteSource;
import org.robostream.video.DecodeStats;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;
import org.robostream.video.VideoStreamInfo;

/**
 * Decodes the frames of one video file, for those who decode files alone; the loader decodes for
 * itself. Frames come back as a {@link FrameBatch} the caller owns: one uint8 RGB column "frames",
 * request i in row i, with each frame's pts and position in the file; in host memory, or in GPU
 * memory when the file decodes with NVDEC.
 *
 * <p>Frames are found by pts, never by average fps, within the options' tolerance. A call's
 * requests are sorted, de-duplicated and decoded in one pass per GOP.
 *
 * <p>Not thread-safe: one per thread. {@link #close()} (idempotent) frees the decoder.
 */
public final class VideoDecoder implements AutoCloseable {
  private final Decoder decoder;

  private VideoDecoder(Decoder decoder) {
    this.decoder = decoder;
  }

  /** Opens a local file with default options. */
  public static VideoDecoder open(Path file) {
    return new VideoDecoder(Decoder.open(file));
  }

  /** Opens a local file. */
  public static VideoDecoder open(Path file, VideoDecoderOptions options) {
    return new VideoDecoder(Decoder.open(file, options));
  }

  /** Opens a video from any byte source (a Hub file, a bucket object); the decoder owns it. */
  public static VideoDecoder open(ByteSource source, VideoDecoderOptions options) {
    return new VideoDecoder(Decoder.open(source, options));
  }

  /** What the container says about the video stream (no decoding happens for it). */
  public VideoStreamInfo info() {
    return decoder.info();
  }

  /** pts (seconds) of every frame in presentation order. */
  public double[] framePtsSeconds() {
    return decoder.framePtsSeconds();
  }

  /**
   * The frames nearest to {@code timestampsSeconds} (any order, repeats allowed), CHW, in a pool of
   * the batch's own.
   *
   * @throws org.robostream.video.FrameTimestampException when a query has no frame within the
   *     tolerance
   */
  public FrameBatch frames(double... timestampsSeconds) {
    return frames(null, FrameLayout.CHW, timestampsSeconds);
  }

  /**
   * {@link #frames(double...)} in {@code layout}, with buffers from {@code pool} (host memory, or
   * the decoding GPU's for NVDEC; null: a pool of the batch's own), so that repeated calls reuse
   * their memory.
   */
  public FrameBatch frames(BatchMemoryPool pool, FrameLayout layout, double... timestampsSeconds) {
    return decodeInto(
        pool,
        layout,
        timestampsSeconds.length,
        column -> decoder.decode(timestampsSeconds, column));
  }

  /** Like {@link #frames(BatchMemoryPool, FrameLayout, double...)}, by position in the file. */
  public FrameBatch framesAt(BatchMemoryPool pool, FrameLayout layout, int... frameIndices) {
    return decodeInto(
        pool, layout, frameIndices.length, column -> decoder.decodeFrames(frameIndices, column));
  }

  private FrameBatch decodeInto(
      BatchMemoryPool given,
      FrameLayout layout,
      int requests,
      Consumer<FrameBatchBuilder.Column> decodeInto) {
    if (requests == 0) {
      throw new IllegalArgumentException("no frames requested from " + decoder.file());
    }
    VideoStreamInfo info = decoder.info();
    // A pool of the batch's own: the exported batch keeps the native pool alive, not this ref.
    try (BatchMemoryPool own =
            given != null
                ? null
                : decoder.decodesOnGpu()
                    ? BatchMemoryPool.cuda(decoder.cudaDevice())
                    : BatchMemoryPool.host();
        FrameBatchBuilder builder = new FrameBatchBuilder(given != null ? given : own, requests)) {
      decodeInto.accept(
          builder.addFrameColumn("frames", info.height(), info.width(), layout, DType.UINT8));
      return builder.export(decoder.cudaStream());
    }
  }

  /** What the decoder did so far: packets, frames decoded and delivered, seeks. */
  public DecodeStats stats() {
    return decoder.stats();
  }

  /** Whether frames decode with NVDEC (into GPU memory). */
  public boolean decodesOnGpu() {
    return decoder.decodesOnGpu();
  }

  /** Why a file asked to decode with NVDEC decodes on the CPU; null otherwise. */
  public String cpuFallbackReason() {
    return decoder.cpuFallbackReason();
  }

  /** The codec backend in use, e.g. "dav1d 1.0.0" or "avcodec h264". */
  public String backendDescription() {
    return decoder.backendDescription();
  }

  @Override
  public void close() {
    decoder.close();
  }
}
