package org.robostream;

/**
 * A failure reported by the native core. Each subclass mirrors one C++ error type (rs::Error's
 * subclasses); higher layers wrap them into domain exceptions that name the file concerned. A
 * {@link RobostreamException}, so that one raised where no layer names a file (a pool allocation
 * inside a decode callback) is still one of the loader's typed errors, which the loader reports as
 * a {@code SampleException} naming file, episode and camera. Only the native core's binding raises
 * them (its status check, in a package the module does not export): the constructors are public for
 * that package, not for callers.
 */
public abstract class NativeException extends RobostreamException {
  private NativeException(String message) {
    super(message);
  }

  /** A caller passed an impossible argument: a bug on the Java side. */
  public static final class InvalidArgument extends NativeException {
    public InvalidArgument(String message) {
      super(message);
    }
  }

  /** The input is valid but uses a feature the core does not handle (bit depth, chroma...). */
  public static final class Unsupported extends NativeException {
    public Unsupported(String message) {
      super(message);
    }
  }

  /** The input bytes could not be decoded. */
  public static final class CorruptData extends NativeException {
    public CorruptData(String message) {
      super(message);
    }
  }

  /** A native allocation failed. */
  public static final class OutOfMemory extends NativeException {
    public OutOfMemory(String message) {
      super(message);
    }
  }

  /** A run-time-loaded library (dav1d, the CUDA driver) is missing. */
  public static final class LibraryUnavailable extends NativeException {
    public LibraryUnavailable(String message) {
      super(message);
    }
  }

  /** A defect inside the core. */
  public static final class Internal extends NativeException {
    public Internal(String message) {
      super(message);
    }
  }
}
