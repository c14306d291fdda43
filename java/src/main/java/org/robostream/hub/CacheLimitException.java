package org.robostream.hub;

import java.util.Locale;
import org.robostream.FileException;

/**
 * A run needs more room in the Hub cache than its limit allows: the files it keeps there (in use
 * already, plus those it is about to download) add up to more than {@code ROBOSTREAM_HUB_CACHE_GB}.
 * Raised before anything is downloaded. {@link #file()} is the cache directory.
 */
public final class CacheLimitException extends FileException {
  private final long neededBytes;
  private final long limitBytes;

  CacheLimitException(
      String cacheRoot, long inUseBytes, long downloadBytes, int files, long limitBytes) {
    super(
        cacheRoot,
        String.format(
            Locale.ROOT,
            "this run needs %s in the cache (%s in the %d"
                + " file(s) it adds, %s in use already) but the cache limit is %s"
                + " (ROBOSTREAM_HUB_CACHE_GB); raise the limit or take fewer episodes",
            size(inUseBytes + downloadBytes),
            size(downloadBytes),
            files,
            size(inUseBytes),
            size(limitBytes)));
    this.neededBytes = inUseBytes + downloadBytes;
    this.limitBytes = limitBytes;
  }

  public long neededBytes() {
    return neededBytes;
  }

  public long limitBytes() {
    return limitBytes;
  }

  static String size(long bytes) {
    return bytes >= 1L << 30
        ? String.format(Locale.ROOT, "%.2f GB", bytes / (double) (1L << 30))
        : String.format(Locale.ROOT, "%.1f MB (%d bytes)", bytes / (double) (1 << 20), bytes);
  }
}
