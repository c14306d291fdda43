package org.robostream.nativecore;

/** Process-wide counters of native objects and bytes, for leak checks. Thread-safe. */
public final class NativeResources {
  private NativeResources() {}

  /** Live native decoders, batches and exported arrays. */
  public static long liveObjects() {
    return NativeCore.rs_live_objects();
  }

  /** Bytes held by live native batch buffers. */
  public static long liveBytes() {
    return NativeCore.rs_live_bytes();
  }

  public static String coreVersion() {
    return NativeCore.rs_version();
  }
}
