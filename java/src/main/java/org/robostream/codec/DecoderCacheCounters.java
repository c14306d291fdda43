package org.robostream.codec;

import java.util.concurrent.atomic.AtomicLong;
import org.robostream.video.DecoderCacheStats;

/**
 * Hit, miss and eviction counters that many {@link DecoderCache}s (one per worker thread) may
 * share; reads are exact because every update is atomic. Thread-safe.
 */
public final class DecoderCacheCounters {
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();
  private final AtomicLong evictions = new AtomicLong();

  void hit() {
    hits.incrementAndGet();
  }

  void hits(long n) {
    hits.addAndGet(n);
  }

  void miss() {
    misses.incrementAndGet();
  }

  void eviction() {
    evictions.incrementAndGet();
  }

  public long hits() {
    return hits.get();
  }

  public long misses() {
    return misses.get();
  }

  public long evictions() {
    return evictions.get();
  }

  /** Aggregate statistics; {@code size} is not tracked across caches and is reported as -1. */
  public DecoderCacheStats snapshot() {
    return new DecoderCacheStats(hits(), misses(), evictions(), -1);
  }
}
