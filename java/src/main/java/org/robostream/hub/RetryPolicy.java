package org.robostream.hub;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Bounded exponential backoff with jitter for transient HTTP failures (429, 5xx, connection resets,
 * timeouts, truncated bodies). The pause before retry n is drawn uniformly from {@code [cap/2,
 * cap]} with {@code cap = min(maxDelay, baseDelay * 2^(n-1))} ("equal jitter"): the fixed half
 * keeps every client of a burst that failed together (the many workers and nodes behind a 429) from
 * coming back at once too early, the random half spreads them. A server's Retry-After replaces the
 * drawn pause, capped at {@code maxDelay} so that one answer cannot park a worker for minutes.
 * Immutable and thread-safe.
 *
 * @param attempts total tries of one request (first try included)
 * @param baseDelay cap of the first pause, doubled for each further one
 * @param maxDelay cap of any pause, Retry-After included
 */
public record RetryPolicy(int attempts, Duration baseDelay, Duration maxDelay) {
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(8, Duration.ofMillis(250), Duration.ofSeconds(20));

  public RetryPolicy {
    if (attempts < 1) {
      throw new IllegalArgumentException("attempts must be >= 1");
    }
    if (baseDelay.isNegative() || maxDelay.compareTo(baseDelay) < 0) {
      throw new IllegalArgumentException(
          "need 0 <= baseDelay <= maxDelay, got " + baseDelay + " and " + maxDelay);
    }
  }

  /** The pause before retry number {@code retry} (1-based); a Retry-After wins when given. */
  Duration delay(int retry, Duration retryAfter) {
    if (retryAfter != null) {
      return retryAfter.compareTo(maxDelay) > 0
          ? maxDelay
          : retryAfter.isNegative() ? Duration.ZERO : retryAfter;
    }
    long cap = Math.min(maxDelay.toMillis(), baseDelay.toMillis() << Math.min(retry - 1, 20));
    return Duration.ofMillis(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
  }
}
