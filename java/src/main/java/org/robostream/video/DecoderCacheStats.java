package org.robostream.video;

/**
 * A snapshot of decoder cache statistics.
 *
 * @param size open decoders in the cache, or -1 for an aggregate over several caches
 */
public record DecoderCacheStats(long hits, long misses, long evictions, long size) {
  /** hits / (hits + misses), 0.0 when there was no lookup. */
  public double hitRate() {
    long lookups = hits + misses;
    return lookups == 0 ? 0.0 : hits / (double) lookups;
  }
}
