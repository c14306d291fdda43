package org.robostream.nativecore;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.robostream.GpuUnavailableException;

/**
 * Whether CUDA and NVDEC can be used by this process, probed once (netty-style availability class).
 * The native core loads libcuda.so.1 and libnvcuvid.so.1 at run time, so these answers come with
 * the cause when something is missing: no driver library, cuInit failing, no device, no NVDEC
 * library, or a core built without nvcc (no GPU colour kernel). Thread-safe.
 */
public final class Cuda {
  private static final int DEVICE_COUNT;
  private static final String CAUSE;
  private static final ConcurrentMap<Integer, String> NVDEC_CAUSES = new ConcurrentHashMap<>();
  private static final String NVDEC_OK = "";

  static {
    NativeCore.ensureLoaded();
    int count = NativeCore.rs_cuda_device_count();
    DEVICE_COUNT = Math.max(count, 0);
    CAUSE = count > 0 ? null : NativeCore.rs_last_error();
  }

  private Cuda() {}

  public static boolean isAvailable() {
    return DEVICE_COUNT > 0;
  }

  /** Why CUDA is unavailable (no driver, no device); null when available. */
  public static String unavailabilityCause() {
    return CAUSE;
  }

  public static int deviceCount() {
    return DEVICE_COUNT;
  }

  /**
   * The CUDA driver's version as "major.minor" (from cuDriverGetVersion), known whenever the driver
   * library loads, even without a usable device; null when it cannot be loaded (then {@link
   * #unavailabilityCause()} says why).
   */
  public static String driverVersion() {
    int[] version = new int[1];
    if (NativeCore.rs_cuda_driver_version(version) != NativeStatus.OK) {
      return null;
    }
    return version[0] / 1000 + "." + (version[0] % 1000) / 10;
  }

  /** Whether the native core carries its GPU colour kernel (nvcc was present at build time). */
  public static boolean compiledWithCuda() {
    return NativeCore.rs_cuda_compiled() != 0;
  }

  /**
   * Why {@code cuda:device} cannot be used at all (no driver, cuInit failing, no such device); null
   * when it can.
   */
  public static String deviceUnavailabilityCause(int device) {
    if (!isAvailable()) {
      return CAUSE;
    }
    return device < DEVICE_COUNT
        ? null
        : "cuda:" + device + " does not exist (" + DEVICE_COUNT + " CUDA device(s))";
  }

  /**
   * Throws {@link GpuUnavailableException} ("{@code request}: cause") when {@code cuda:device}
   * cannot be used.
   */
  public static void requireDevice(int device, String request) {
    String cause = deviceUnavailabilityCause(device);
    if (cause != null) {
      throw new GpuUnavailableException(device, cause, request + ": " + cause);
    }
  }

  /** Whether NVDEC decoding can be used on {@code cuda:device}; probed once per device. */
  public static boolean nvdecAvailable(int device) {
    return nvdecCause(device).isEmpty();
  }

  /** Why NVDEC cannot be used on {@code cuda:device} (the device's cause first), or null. */
  public static String nvdecUnavailabilityCause(int device) {
    String cause = nvdecCause(device);
    return cause.isEmpty() ? null : cause;
  }

  private static String nvdecCause(int device) {
    String cause = deviceUnavailabilityCause(device);
    if (cause != null) {
      return cause;
    }
    return NVDEC_CAUSES.computeIfAbsent(
        device,
        d -> {
          int ok = NativeCore.rs_nvdec_available(d);
          return ok == 1 ? NVDEC_OK : NativeCore.rs_last_error();
        });
  }
}
