package org.robostream.nativecore;

import org.robostream.NativeException;

/**
 * Status codes of the native core (RS_* in robostream.h) and the one place where they become Java
 * exceptions. Thread-safe (stateless).
 */
public final class NativeStatus {
  public static final int OK = 0;
  public static final int INVALID_ARGUMENT = 1;
  public static final int UNSUPPORTED = 2;
  public static final int CORRUPT_DATA = 3;
  public static final int OUT_OF_MEMORY = 4;
  public static final int LIBRARY_UNAVAILABLE = 5;
  public static final int INTERNAL = 6;

  private NativeStatus() {}

  /**
   * Throws the Java exception for {@code status} (no-op for {@link #OK}); the message combines
   * {@code context} with the native core's message for this thread's last failure.
   */
  public static void check(int status, String context) {
    if (status == OK) {
      return;
    }
    String message = context + ": " + NativeCore.rs_last_error();
    throw switch (status) {
      case INVALID_ARGUMENT -> new NativeException.InvalidArgument(message);
      case UNSUPPORTED -> new NativeException.Unsupported(message);
      case CORRUPT_DATA -> new NativeException.CorruptData(message);
      case OUT_OF_MEMORY -> new NativeException.OutOfMemory(message);
      case LIBRARY_UNAVAILABLE -> new NativeException.LibraryUnavailable(message);
      default -> new NativeException.Internal(message + " (status " + status + ")");
    };
  }
}
