package org.robostream.video;

/**
 * Options of a {@link VideoDecoder}. Immutable; build with {@link #defaults()} and the {@code
 * with*} methods.
 *
 * @param threads decoder threads per decoder (1: one worker thread drives one single-threaded
 *     decoder, the best total throughput when several workers decode; 0: the codec's default)
 * @param toleranceSeconds largest allowed distance between a query and the frame's pts
 * @param converter colour converter for FFmpeg-decoded frames
 * @param av1Backend AV1 decoder choice
 * @param lowLatency true (default): frames come out right after their packet, best for random
 *     access; false: the codec may pipeline frames across its threads, best for long sequential
 *     reads with threads &gt; 1
 * @param cudaDevice -1 (default): decode on the CPU; N: decode with NVDEC on {@code cuda:N} into
 *     device destinations, a file NVDEC cannot decode falling back to the CPU with a warning
 */
public record VideoDecoderOptions(
    int threads,
    double toleranceSeconds,
    ColorConverterKind converter,
    Av1Backend av1Backend,
    boolean lowLatency,
    int cudaDevice) {
  public static final double DEFAULT_TOLERANCE_S = 1e-4;

  public VideoDecoderOptions {
    if (threads < 0) {
      throw new IllegalArgumentException("threads must be >= 0, got " + threads);
    }
    if (!(toleranceSeconds >= 0) || Double.isInfinite(toleranceSeconds)) {
      throw new IllegalArgumentException("tolerance_s must be a finite value >= 0");
    }
  }

  public static VideoDecoderOptions defaults() {
    return new VideoDecoderOptions(
        1, DEFAULT_TOLERANCE_S, ColorConverterKind.AUTO, Av1Backend.AUTO, true, -1);
  }

  public VideoDecoderOptions withThreads(int n) {
    return new VideoDecoderOptions(
        n, toleranceSeconds, converter, av1Backend, lowLatency, cudaDevice);
  }

  public VideoDecoderOptions withTolerance(double seconds) {
    return new VideoDecoderOptions(threads, seconds, converter, av1Backend, lowLatency, cudaDevice);
  }

  public VideoDecoderOptions withConverter(ColorConverterKind kind) {
    return new VideoDecoderOptions(
        threads, toleranceSeconds, kind, av1Backend, lowLatency, cudaDevice);
  }

  public VideoDecoderOptions withAv1Backend(Av1Backend backend) {
    return new VideoDecoderOptions(
        threads, toleranceSeconds, converter, backend, lowLatency, cudaDevice);
  }

  /** Decode with NVDEC on {@code cuda:device} (-1: the CPU). */
  public VideoDecoderOptions withCudaDevice(int device) {
    return new VideoDecoderOptions(
        threads, toleranceSeconds, converter, av1Backend, lowLatency, device);
  }

  public VideoDecoderOptions withLowLatency(boolean value) {
    return new VideoDecoderOptions(
        threads, toleranceSeconds, converter, av1Backend, value, cudaDevice);
  }
}
