package org.robostream.bench;

/**
 * How a result names its decode device for people: the requested device (what the file name keeps,
 * as the reference names files), plus where frames really decoded when that differs, so a run that
 * fell back to the CPU never reads like a GPU run. Examples: {@code cpu}, {@code cuda}, {@code
 * cuda-or-cpu→cpu} (no usable GPU), {@code cuda-or-cpu→cuda}, {@code cuda(3 files→cpu)} (files
 * NVDEC cannot decode, e.g. AV1 on Hopper). Stateless.
 */
public final class DecodeLabel {
  private DecodeLabel() {}

  /**
   * @param requested the {@code --video-decode-device} value ({@code cpu}, {@code cuda[:N]}, {@code
   *     cuda-or-cpu[:N]})
   * @param effective where the run decoded ({@code cpu} or {@code cuda}); empty or null when
   *     unknown (results written before the field existed)
   * @param cpuFallbackFiles files of a GPU run that decoded on the CPU
   */
  public static String of(String requested, String effective, long cpuFallbackFiles) {
    if (effective != null && !effective.isEmpty() && !deviceOf(requested).equals(effective)) {
      return requested + "→" + effective;
    }
    if (cpuFallbackFiles > 0) {
      return requested
          + "("
          + cpuFallbackFiles
          + (cpuFallbackFiles == 1 ? " file" : " files")
          + "→cpu)";
    }
    return requested;
  }

  /** {@code cuda:1} → {@code cuda}; {@code cuda-or-cpu} stays as it is (it names no device). */
  private static String deviceOf(String requested) {
    int colon = requested.indexOf(':');
    return colon < 0 ? requested : requested.substring(0, colon);
  }
}
