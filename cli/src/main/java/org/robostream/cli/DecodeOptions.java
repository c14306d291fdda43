package org.robostream.cli;

import org.robostream.stream.StreamingDataset;
import org.robostream.video.DecodeDeviceSpec;
import picocli.CommandLine.Option;

/**
 * The decoding flags of {@code bench} and {@code train} (a picocli mixin). Not thread-safe (filled
 * by picocli, read once).
 */
final class DecodeOptions {
  @Option(
      names = {"--video-decode-device", "--video_decode_device"},
      defaultValue = "cpu",
      description =
          "cpu, cuda[:N] (NVDEC; an error without a usable GPU) or cuda-or-cpu[:N]"
              + " (falls back to the CPU, reported)")
  String decodeDevice;

  @Option(
      names = {"--video-decoder-cache-size", "--video_decoder_cache_size"},
      description = "open decoders kept per worker (default: the loader's)")
  Integer cacheSize;

  /** The parsed device; call before any heavy work so a typo is an instant exit 2. */
  DecodeDeviceSpec device() {
    return DecodeDeviceSpec.parse(decodeDevice);
  }

  void applyTo(StreamingDataset.Builder builder) {
    builder.decodeDevice(device());
    if (cacheSize != null) {
      builder.decoderCacheSize(cacheSize);
    }
  }
}
