package org.robostream.video;

import java.util.Locale;
import org.robostream.GpuUnavailableException;
import org.robostream.nativecore.Cuda;

/**
 * Where the user asked frames to be decoded: {@code cpu}, {@code cuda[:N]} (NVDEC on GPU N; an
 * error when it cannot be used) or {@code cuda-or-cpu[:N]} (NVDEC when usable, else the CPU with a
 * reported fallback). Immutable.
 *
 * @param device the requested device
 * @param index GPU ordinal for CUDA (0 for the CPU)
 * @param cpuFallback whether an unusable GPU falls back to the CPU instead of failing
 */
public record DecodeDeviceSpec(Device device, int index, boolean cpuFallback) {
  public static final DecodeDeviceSpec CPU = new DecodeDeviceSpec(Device.CPU, 0, false);

  public DecodeDeviceSpec {
    if (index < 0) {
      throw new IllegalArgumentException("GPU index must be >= 0, got " + index);
    }
  }

  public static DecodeDeviceSpec parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals("cpu")) {
      return CPU;
    }
    boolean fallback = t.startsWith("cuda-or-cpu");
    String rest =
        fallback
            ? t.substring("cuda-or-cpu".length())
            : t.startsWith("cuda") ? t.substring("cuda".length()) : null;
    if (rest != null && (rest.isEmpty() || rest.matches(":\\d+"))) {
      int index = rest.isEmpty() ? 0 : Integer.parseInt(rest.substring(1));
      return new DecodeDeviceSpec(Device.CUDA, index, fallback);
    }
    throw new IllegalArgumentException(
        "decodeDevice must be cpu, cuda[:N] or cuda-or-cpu[:N]," + " got " + text);
  }

  /**
   * Decides where decoding runs: the CPU when asked; NVDEC when it is usable on the GPU; else the
   * CPU with the reason when a fallback is allowed, or an error naming the cause.
   *
   * @throws GpuUnavailableException for {@code cuda} when NVDEC cannot be used; the message names
   *     the option ({@code decodeDevice}), which the CLI shows as its flag
   */
  public Resolution resolve() {
    if (device == Device.CPU) {
      return new Resolution(Device.CPU, null);
    }
    String cause = Cuda.nvdecUnavailabilityCause(index);
    if (cause == null) {
      return new Resolution(Device.CUDA, null);
    }
    if (cpuFallback) {
      return new Resolution(Device.CPU, cause);
    }
    throw new GpuUnavailableException(
        index,
        cause,
        "decodeDevice "
            + this
            + " cannot be used: "
            + cause
            + " (use cuda-or-cpu to fall back to CPU decoding, or cpu)");
  }

  @Override
  public String toString() {
    if (device == Device.CPU) {
      return "cpu";
    }
    return (cpuFallback ? "cuda-or-cpu" : "cuda") + (index == 0 ? "" : ":" + index);
  }

  /**
   * @param effective where frames decode
   * @param fallbackReason why a GPU request decodes on the CPU, or null
   */
  public record Resolution(Device effective, String fallbackReason) {
    public boolean fellBack() {
      return fallbackReason != null;
    }
  }
}
