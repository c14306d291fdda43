package org.robostream.bench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.robostream.framecache.FrameCacheStats;

/**
 * The benchmark result's {@code frame_cache} block and its line in the printed summary: what the
 * decoded-frame cache did in this process ({@link FrameCacheStats}) and the flag it was configured
 * with. Stateless.
 */
public final class FrameCacheReport {
  private FrameCacheReport() {}

  /** The block for {@code spec} (the {@code --frame-cache} value) and {@code stats}. */
  public static Map<String, Object> block(String spec, FrameCacheStats stats) {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("spec", spec);
    c.put("hits", stats.hits());
    c.put("misses", stats.misses());
    c.put("stored", stats.stored());
    c.put("evictions", stats.evictions());
    c.put("bytes_served", stats.bytesServed());
    c.put("bytes_stored", stats.bytesStored());
    c.put("file_bytes", stats.fileBytes());
    c.put("max_bytes", stats.maxBytes());
    c.put("hit_rate", StreamingBenchmark.round(stats.hitRate(), 4));
    c.put("checksum_failures", stats.checksumFailures());
    c.put("not_cacheable", stats.notCacheable());
    c.put("refused_reservations", stats.refusedReservations());
    c.put("own_evictions", stats.ownEvictions());
    c.put("needed_bytes", stats.neededBytes());
    c.put("disabled", stats.disabled());
    return c;
  }

  /**
   * The summary line: the cache's hits and misses, in the window the frames decoded beside those
   * served from the cache (so a served rate is never read as a decode rate), the first epoch's rate
   * (it fills the cache) beside the later epochs' (the cache serves them), and why the cache
   * stopped if it did.
   */
  public static String line(Map<String, Object> result) {
    @SuppressWarnings("unchecked")
    Map<String, Object> c = (Map<String, Object>) result.get("frame_cache");
    Object disabled = c.get("disabled");
    return String.format(
        Locale.ROOT,
        "frame cache %s: %s hits, %s misses (hit rate %s), %s stored, %s evictions; in the window"
            + " %s frames decoded and %s served from the cache (%s served frames/s%s); epoch 1"
            + " %s samples/s, epochs 2+ %s samples/s%s%s",
        c.get("spec"),
        c.get("hits"),
        c.get("misses"),
        c.get("hit_rate"),
        c.get("stored"),
        c.get("evictions"),
        result.get("window_frames_decoded"),
        result.get("window_frames_from_cache"),
        result.get("served_frames_per_s"),
        result.containsKey("served_ratio")
            ? ", " + result.get("served_ratio") + "x the ffmpeg CLI"
            : "",
        result.get("epoch1_samples_per_s"),
        result.get("later_epochs_samples_per_s") == null
            ? "n/a (one epoch)"
            : result.get("later_epochs_samples_per_s"),
        tooSmall(c),
        disabled == null ? "" : "; DISABLED: " + disabled + " (frames were decoded from then on)");
  }

  /**
   * Said when the cache held less than the frames this process reads need ({@code
   * refused_reservations}, {@code own_evictions}): what they need, so the next run asks for it.
   */
  private static String tooSmall(Map<String, Object> c) {
    long refused = ((Number) c.getOrDefault("refused_reservations", 0L)).longValue();
    long own = ((Number) c.getOrDefault("own_evictions", 0L)).longValue();
    if (refused == 0 && own == 0) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "; TOO SMALL: the frames read need %s, the cache holds %s (%s reservations refused, %s"
            + " files evicted and read again): raise --frame-cache SIZE",
        org.robostream.ByteSize.describe(((Number) c.get("needed_bytes")).longValue()),
        org.robostream.ByteSize.describe(((Number) c.get("max_bytes")).longValue()),
        refused,
        own);
  }
}
