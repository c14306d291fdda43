package org.robostream.fetch;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What fetching did, summed over a stream's workers: frames decoded, frames delivered (decoded or
 * served from the frame cache), frames served from the cache and the largest pts drift seen. The
 * loader's public {@code stream.StreamCounters} reads them into its snapshot. Thread-safe
 * (atomics): every worker of a stream adds to one instance.
 */
public final class FetchCounters {
  final AtomicLong framesDecoded = new AtomicLong();
  final AtomicLong framesDelivered = new AtomicLong();
  final AtomicLong framesFromCache = new AtomicLong();
  private final AtomicLong maxDriftNanos = new AtomicLong();

  public long framesDecoded() {
    return framesDecoded.get();
  }

  public long framesDelivered() {
    return framesDelivered.get();
  }

  public long framesFromCache() {
    return framesFromCache.get();
  }

  /** The largest distance, in seconds, of a decoded frame's pts from where its position puts it. */
  public double maxDriftSeconds() {
    return maxDriftNanos.get() / 1e9;
  }

  void drift(double seconds) {
    long n = (long) Math.abs(seconds * 1e9);
    maxDriftNanos.accumulateAndGet(n, Math::max);
  }
}
