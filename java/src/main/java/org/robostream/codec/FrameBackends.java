package org.robostream.codec;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_AV1;

import java.util.concurrent.atomic.AtomicBoolean;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.robostream.GpuUnavailableException;
import org.robostream.nativecore.Av1Decoder;
import org.robostream.nativecore.Cuda;
import org.robostream.video.UnsupportedVideoException;
import org.robostream.video.VideoDecoderOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which {@link FrameBackend} decodes a stream, and opening it: NVDEC when the options name a GPU
 * and NVDEC can decode the stream; otherwise FFmpeg's avcodec, except AV1, which dav1d decodes
 * (libaom-av1 through avcodec when dav1d is missing or asked for).
 *
 * <p>Stateless and thread-safe (the libaom warning is logged once per process).
 */
final class FrameBackends {
  // The decoder's logger: a user configures logging by the public class.
  private static final Logger LOG = LoggerFactory.getLogger(Decoder.class);
  private static final AtomicBoolean LIBAOM_WARNING_LOGGED = new AtomicBoolean();

  private FrameBackends() {}

  /**
   * An opened backend; {@code cpuFallbackReason} says why a stream asked to decode with NVDEC
   * decodes on the CPU (null otherwise).
   */
  record Opened(FrameBackend backend, String cpuFallbackReason) {}

  /**
   * NVDEC when asked for and able to decode this file; the CPU otherwise. A file NVDEC cannot
   * decode (AV1 on Hopper, a profile, a size) falls back with a warning once per file and the
   * reason; an unusable GPU is a {@link GpuUnavailableException}.
   */
  static Opened open(String file, AVStream stream, VideoDecoderOptions options) {
    AVCodecParameters parameters = stream.codecpar();
    String fallbackReason = null;
    if (options.cudaDevice() >= 0) {
      int device = options.cudaDevice();
      String unusable = Cuda.nvdecUnavailabilityCause(device);
      if (unusable != null) {
        throw new GpuUnavailableException(
            device,
            unusable,
            file + ": NVDEC decoding on cuda:" + device + " is unavailable: " + unusable);
      }
      fallbackReason = NvdecBackend.unsupportedReason(parameters, device);
      if (fallbackReason == null) {
        return new Opened(
            NvdecBackend.open(file, parameters, stream.time_base(), device, options.lowLatency()),
            null);
      }
      LOG.warn("{}: decoding on the CPU: {}", file, fallbackReason);
    }
    return new Opened(openCpu(file, parameters, options), fallbackReason);
  }

  private static FrameBackend openCpu(
      String file, AVCodecParameters parameters, VideoDecoderOptions options) {
    if (parameters.codec_id() != AV_CODEC_ID_AV1) {
      return new AvcodecBackend(file, parameters, null, options.threads(), options.converter());
    }
    switch (options.av1Backend()) {
      case DAV1D -> {
        if (!Av1Decoder.isAvailable()) {
          throw new UnsupportedVideoException(
              file,
              "dav1d was requested for AV1 but is unavailable: "
                  + Av1Decoder.unavailabilityCause());
        }
        return dav1d(file, parameters, options);
      }
      case LIBAOM -> {
        return libaom(file, parameters, options);
      }
      default -> {
        if (Av1Decoder.isAvailable()) {
          return dav1d(file, parameters, options);
        }
        if (LIBAOM_WARNING_LOGGED.compareAndSet(false, true)) {
          LOG.warn(
              "dav1d unavailable ({}); decoding AV1 with libaom-av1, which is 1.5-3x slower."
                  + " Install libdav1d6 for full speed.",
              Av1Decoder.unavailabilityCause());
        }
        return libaom(file, parameters, options);
      }
    }
  }

  private static FrameBackend dav1d(
      String file, AVCodecParameters parameters, VideoDecoderOptions options) {
    return new Dav1dBackend(
        file, parameters, options.threads(), options.lowLatency(), options.converter());
  }

  private static FrameBackend libaom(
      String file, AVCodecParameters parameters, VideoDecoderOptions options) {
    return new AvcodecBackend(
        file, parameters, "libaom-av1", options.threads(), options.converter());
  }
}
