package org.robostream.hub;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where a Hub dataset's bytes came from: the dataset repository, a bucket, the local mirror's disk,
 * or anything else (another endpoint's URL). The client counts each request against the URL it
 * asked for, so a redirect to a CDN still counts for the repository or bucket that sent it. A
 * benchmark takes a {@link Snapshot} before and after each phase (opening, a warm pass, the run)
 * and reports the differences, so one phase's bytes never inflate another's. Thread-safe.
 */
public final class HubTraffic {
  /** Where bytes came from. */
  public enum Origin {
    REPOSITORY,
    BUCKET,
    LOCAL_DISK,
    OTHER;

    /** The name in result JSON: repository, bucket, local_disk, other. */
    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final String endpoint;
  private final LongAdder[] bytes = adders();
  private final LongAdder[] requests = adders();

  HubTraffic(String endpoint) {
    this.endpoint =
        endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
  }

  /** Counts one HTTP request of {@code url} (the URL asked for, before redirects). */
  void request(String url, long bodyBytes) {
    Origin o = originOf(url);
    requests[o.ordinal()].increment();
    bytes[o.ordinal()].add(bodyBytes);
  }

  /** Counts one video opened from the local mirror. */
  void localOpen() {
    requests[Origin.LOCAL_DISK.ordinal()].increment();
  }

  /** Counts bytes read from a file of the local mirror. */
  void localRead(long n) {
    bytes[Origin.LOCAL_DISK.ordinal()].add(n);
  }

  /**
   * The origin of a URL of this endpoint: resolve and listing URLs of a dataset repository or of a
   * bucket (the Hub's layout); anything else is OTHER.
   */
  Origin originOf(String url) {
    if (!url.startsWith(endpoint + "/")) {
      return Origin.OTHER;
    }
    String path = url.substring(endpoint.length());
    if (path.startsWith("/datasets/") || path.startsWith("/api/datasets/")) {
      return Origin.REPOSITORY;
    }
    if (path.startsWith("/buckets/") || path.startsWith("/api/buckets/")) {
      return Origin.BUCKET;
    }
    return Origin.OTHER;
  }

  public Snapshot snapshot() {
    Origin[] all = Origin.values();
    long[] b = new long[all.length];
    long[] r = new long[all.length];
    for (Origin o : all) {
      b[o.ordinal()] = bytes[o.ordinal()].sum();
      r[o.ordinal()] = requests[o.ordinal()].sum();
    }
    return new Snapshot(b, r);
  }

  private static LongAdder[] adders() {
    LongAdder[] a = new LongAdder[Origin.values().length];
    for (int i = 0; i < a.length; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  /**
   * Counts at one moment, per origin: bytes, and requests (for the local disk: videos opened).
   * Index by {@link Origin#ordinal()}.
   */
  public record Snapshot(long[] bytes, long[] requests) {
    public long bytes(Origin o) {
      return bytes[o.ordinal()];
    }

    public long requests(Origin o) {
      return requests[o.ordinal()];
    }

    /** Bytes of every origin that is over the network. */
    public long networkBytes() {
      return bytes(Origin.REPOSITORY) + bytes(Origin.BUCKET) + bytes(Origin.OTHER);
    }

    /** Requests of every origin that is over the network. */
    public long networkRequests() {
      return requests(Origin.REPOSITORY) + requests(Origin.BUCKET) + requests(Origin.OTHER);
    }

    /** What happened between {@code earlier} and this snapshot. */
    public Snapshot minus(Snapshot earlier) {
      long[] b = bytes.clone();
      long[] r = requests.clone();
      for (int i = 0; i < b.length; i++) {
        b[i] -= earlier.bytes[i];
        r[i] -= earlier.requests[i];
      }
      return new Snapshot(b, r);
    }

    /**
     * For result JSON: each origin with any traffic, {@code {"bytes": N, "requests": N}} (for the
     * local disk {@code "opens"}: videos opened, not requests).
     */
    public Map<String, Object> toMap() {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Origin o : Origin.values()) {
        if (bytes(o) == 0 && requests(o) == 0) {
          continue;
        }
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("bytes", bytes(o));
        counts.put(o == Origin.LOCAL_DISK ? "opens" : "requests", requests(o));
        out.put(o.key(), counts);
      }
      return out;
    }
  }
}
