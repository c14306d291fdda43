package org.robostream.framecache;

/**
 * What a {@link FrameCache} did since it opened (this process only; the files it shares with other
 * processes are counted by each of them). Immutable snapshot.
 *
 * @param hits frames served from the cache
 * @param misses frames looked up and not found (then decoded)
 * @param stored frames written to the cache
 * @param evictions whole files removed to stay within the budget (by this process)
 * @param bytesServed packed bytes of the frames served
 * @param bytesStored packed bytes of the frames written
 * @param fileBytes bytes the cache's files take together, as of the last look at the folder
 * @param maxBytes the budget
 * @param checksumFailures frames whose bytes did not match their checksum, whose slot fields did
 *     not describe them, or of another size or pixel format than their video (treated as misses)
 * @param notCacheable frames that could not be stored (a file larger than the whole budget, a
 *     picture of another size than its file's slots, a position its file keeps no slot for)
 * @param disabled why the cache stopped (a full disk, a folder that vanished), or null while it
 *     works; frames are decoded from then on
 * @param refusedReservations files this process reads whose frames need more than the whole budget:
 *     never cached, decoded every epoch (the cache is too small; said once in a warning)
 * @param ownEvictions files this process reads that it evicted itself to make room for another it
 *     reads: the budget holds less than they need together, so later epochs decode again (said once
 *     in a warning)
 * @param neededBytes what the files this process reserved, or tried to, take together (a file of
 *     the frames it reads of each video, as {@link FrameCacheOptions} counts them against {@code
 *     maxBytes}); after an epoch, the budget that holds all it reads
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
