package org.robostream.torch.dist;

/**
 * A collective operation across ranks failed: a rank did not arrive at the rendezvous within the
 * timeout, a peer died or stopped answering during an all-reduce, or the launcher's environment
 * does not say where rank 0 listens. The message names this rank, the world, the rendezvous address
 * and the way through; libtorch's own message (its first line, without the C++ stack) follows.
 */
public final class DistributedException extends RuntimeException {
  public DistributedException(String message, Throwable cause) {
    super(message, cause);
  }

  public DistributedException(String message) {
    super(message);
  }

  /** libtorch's message without the stack of C++ frames it appends. */
  static String firstLine(Throwable t) {
    String m = t.getMessage();
    if (m == null || m.isBlank()) {
      return t.getClass().getSimpleName();
    }
    int nl = m.indexOf('\n');
    return (nl < 0 ? m : m.substring(0, nl)).strip();
  }
}
