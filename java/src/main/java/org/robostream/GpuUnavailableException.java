package org.robostream;

/**
 * A GPU was asked for and cannot be used here: no NVIDIA driver, cuInit failing, no such device, no
 * NVDEC. The one type for it, whoever asks: a {@code cuda} decode device, a decoder opened with a
 * CUDA device, a CUDA memory pool, a CUDA batch transfer. Not about a file: the same request fails
 * for every file on this machine. {@code cuda-or-cpu} requests never raise it (they decode on the
 * CPU and report why).
 */
public final class GpuUnavailableException extends RobostreamException {
  private final int device;
  private final String reason;

  /**
   * @param device the CUDA ordinal asked for
   * @param reason why it cannot be used (the native core's CUDA probe's cause)
   * @param message the whole message: what was asked for, the reason, what to do instead
   */
  public GpuUnavailableException(int device, String reason, String message) {
    this(device, reason, message, null);
  }

  /** As above, with the native failure that showed the GPU unusable. */
  public GpuUnavailableException(int device, String reason, String message, Throwable cause) {
    super(message, cause);
    this.device = device;
    this.reason = reason;
  }

  /** The CUDA ordinal that was asked for. */
  public int device() {
    return device;
  }

  /** Why it cannot be used, as the native core's CUDA probe reports it. */
  public String reason() {
    return reason;
  }
}
