package org.robostream.video;

/**
 * Options of a video decoder. Immutable; build with {@link #defaults()} and {@code with*}.
 *
 * @param threads threads per decoder (1: best total throughput with several workers; 0: codec's)
 * @param toleranceSeconds largest allowed distance between a query and the frame's pts
 * @param converter colour converter for FFmpeg-decoded frames
 * @param av1Backend AV1 decoder choice
 * @param lowLatency true (default): a frame comes out right after its packet (random access);
 *     false: the codec may pipeline across threads (long sequential reads)
 * @param cudaDevice -1 (default): the CPU; N: NVDEC on {@code cuda:N} into device destinations,
 *     falling back to the CPU with a warning for a file NVDEC cannot decode
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
