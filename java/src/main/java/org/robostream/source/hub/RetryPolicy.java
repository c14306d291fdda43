package org.robostream.source.hub;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Bounded exponential backoff with full jitter for transient HTTP failures (429, 5xx, connection
 * resets, timeouts, truncated bodies). Immutable and thread-safe.
 *
 * @param attempts total tries of one request (first try included)
 * @param baseDelay delay before the first retry, doubled for each further one
 * @param maxDelay cap of one delay (also of a server's Retry-After)
 */
public record RetryPolicy(int attempts, Duration baseDelay, Duration maxDelay) {
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(8, Duration.ofMillis(250), Duration.ofSeconds(20));

  public RetryPolicy {
    if (attempts < 1) {
      throw new IllegalArgumentException("attempts must be >= 1");
    }
  }

  /** The pause before retry number {@code retry} (1-based); a Retry-After wins when given. */
  Duration delay(int retry, Duration retryAfter) {
    if (retryAfter != null) {
      return retryAfter.compareTo(maxDelay) > 0 ? maxDelay : retryAfter;
    }
    long cap = Math.min(maxDelay.toMillis(), baseDelay.toMillis() << Math.min(retry - 1, 20));
    return Duration.ofMillis(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
  }
}
