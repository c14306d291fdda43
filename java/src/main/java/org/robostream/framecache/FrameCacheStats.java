package org.robostream.framecache;

/**
 * What a {@link FrameCache} did since it opened, in this process only: hits, misses, frames stored,
 * files evicted, packed bytes served and stored, and the budget {@code maxBytes}. Immutable.
 *
 * @param fileBytes bytes of all the cache's files, as of the last look at the folder
 * @param checksumFailures frames whose checksum, fields, size or format did not check (misses)
 * @param notCacheable frames that could not be stored (too large, wrong size, no slot)
 * @param disabled why the cache stopped, or null; frames are decoded from then on
 * @param refusedReservations files that need more than the whole budget: decoded every epoch
 * @param ownEvictions files this process evicted for others it reads: the budget is too small
 * @param neededBytes what this process's files take (reserved or tried): the budget that holds all
 */
public record FrameCacheStats(
    long hits,
    long misses,
    long stored,
    long evictions,
    long bytesServed,
    long bytesStored,
    long fileBytes,
    long maxBytes,
    long checksumFailures,
    long notCacheable,
    String disabled,
    long refusedReservations,
    long ownEvictions,
    long neededBytes) {
  /** The counters before reservations were counted (refused, own evictions, needed bytes: 0). */
  public FrameCacheStats(
      long hits,
      long misses,
      long stored,
      long evictions,
      long bytesServed,
      long bytesStored,
      long fileBytes,
      long maxBytes,
      long checksumFailures,
      long notCacheable,
      String disabled) {
    this(
        hits,
        misses,
        stored,
        evictions,
        bytesServed,
        bytesStored,
        fileBytes,
        maxBytes,
        checksumFailures,
        notCacheable,
        disabled,
        0,
        0,
        0);
  }

  /**
   * Whether the cache showed itself too small for what this process reads: a reservation refused or
   * a file it reads evicted to make room for another it reads.
   */
  public boolean tooSmall() {
    return refusedReservations > 0 || ownEvictions > 0;
  }

  /** hits / (hits + misses), 0 before any lookup. */
  public double hitRate() {
    long n = hits + misses;
    return n == 0 ? 0.0 : hits / (double) n;
  }

  /** No cache configured. */
  public static final FrameCacheStats NONE =
      new FrameCacheStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0, 0, 0);
}
