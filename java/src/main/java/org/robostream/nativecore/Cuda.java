package org.robostream.nativecore;

/**
 * Whether CUDA can be used by this process, probed once (netty-style availability class).
 * Thread-safe.
 */
public final class Cuda {
  private static final int DEVICE_COUNT;
  private static final String CAUSE;

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

  /** Why CUDA is unavailable (no driver, no device, built without CUDA); null when available. */
  public static String unavailabilityCause() {
    return CAUSE;
  }

  public static int deviceCount() {
    return DEVICE_COUNT;
  }

  /** Whether the native core was compiled with its CUDA part. */
  public static boolean compiledWithCuda() {
    return NativeCore.rs_cuda_compiled() != 0;
  }
}
