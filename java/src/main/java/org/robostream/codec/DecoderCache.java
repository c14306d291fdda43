package org.robostream.codec;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import org.robostream.video.DecodeStats;
import org.robostream.video.DecoderCacheStats;
import org.robostream.video.Device;
import org.robostream.video.VideoDecoderOptions;

/**
 * A bounded LRU of open {@link Decoder}s keyed by (file, device, {@link DecoderSlot}), so a worker
 * does not reopen and re-index the same videos; the slot keeps decoders of one file at different
 * positions apart (live episode streams in one v3.0 file). Evicted decoders are closed. Capacity:
 * the constructor's, else {@code ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE} (or LeRobot's {@code
 * LEROBOT_VIDEO_DECODER_CACHE_SIZE}), else {@value #DEFAULT_CAPACITY}; {@code none} or {@code -1}:
 * unbounded.
 *
 * <p>The cache is thread-safe; its decoders are not, so each worker has a cache of its own. A
 * decoder from {@link #get} is valid until a later {@code get} evicts it or the cache closes.
 */
public final class DecoderCache implements AutoCloseable {
  public static final int DEFAULT_CAPACITY = 100;
  public static final String ENV = "ROBOSTREAM_VIDEO_DECODER_CACHE_SIZE";
  public static final String LEROBOT_ENV = "LEROBOT_VIDEO_DECODER_CACHE_SIZE";
  public static final int UNBOUNDED = Integer.MAX_VALUE;

  /** Opens a decoder for a key on a miss. */
  @FunctionalInterface
  public interface Opener {
    /**
     * @param sibling an open decoder of the same file in this cache (another reader's), whose frame
     *     table a new decoder may reuse instead of scanning the file again; or null
     */
    Decoder open(String file, Device device, Decoder sibling);
  }

  /** The slot tells apart decoders of one file kept at different positions (one per stream). */
  private record Key(String file, Device device, DecoderSlot slot) {}

  private final int capacity;
  private final Opener opener;
  private final DecoderCacheCounters counters;
  private final LinkedHashMap<Key, Decoder> entries = new LinkedHashMap<>(16, 0.75f, true);
  // Opened by an uncounted lookup (peek): their first counted lookup is the miss.
  private final java.util.Set<Key> openedUncounted = new java.util.HashSet<>();
  private boolean closed;

  /**
   * @param capacity explicit capacity (empty: from the environment or the default)
   * @param opener how to open a decoder on a miss
   * @param counters counters to update, possibly shared with other caches
   */
  public DecoderCache(OptionalInt capacity, Opener opener, DecoderCacheCounters counters) {
    this.capacity =
        capacity.isPresent()
            ? checkCapacity(capacity.getAsInt(), "capacity")
            : capacityFromEnvironment(System.getenv());
    this.opener = Objects.requireNonNull(opener);
    this.counters = Objects.requireNonNull(counters);
  }

  /** A cache of local files opened with {@code options}, with counters of its own. */
  public static DecoderCache forLocalFiles(OptionalInt capacity, VideoDecoderOptions options) {
    return new DecoderCache(
        capacity,
        (file, device, sibling) ->
            Decoder.open(Decoder.openLocal(java.nio.file.Path.of(file)), options, sibling),
        new DecoderCacheCounters());
  }

  /** Resolves the capacity from environment variables (ROBOSTREAM_ first, then LEROBOT_). */
  static int capacityFromEnvironment(Map<String, String> env) {
    return configuredCapacity(env).orElse(DEFAULT_CAPACITY);
  }

  /**
   * The capacity the environment sets ({@link #ENV} first, then {@link #LEROBOT_ENV}), empty when
   * neither is set; {@link #UNBOUNDED} for none / unbounded / -1. A value that is not a capacity is
   * an {@link IllegalArgumentException} naming the variable: a misspelt setting must not silently
   * become a default.
   */
  public static OptionalInt configuredCapacity(Map<String, String> env) {
    for (String name : List.of(ENV, LEROBOT_ENV)) {
      String value = env.get(name);
      if (value != null) {
        return OptionalInt.of(parseCapacity(value, name));
      }
    }
    return OptionalInt.empty();
  }

  /** Parses a capacity: a positive integer, or none / unbounded / -1 for no bound. */
  public static int parseCapacity(String text, String source) {
    String t = text.strip().toLowerCase(java.util.Locale.ROOT);
    if (t.equals("none") || t.equals("unbounded") || t.equals("-1")) {
      return UNBOUNDED;
    }
    try {
      return checkCapacity(Integer.parseInt(t), source);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          source + " must be a positive integer, none or -1; got \"" + text + "\"");
    }
  }

  private static int checkCapacity(int value, String source) {
    if (value == -1) {
      return UNBOUNDED;
    }
    if (value <= 0) {
      throw new IllegalArgumentException(
          source + " must be a positive integer, none or -1; got " + value);
    }
    return value;
  }

  /** The bound, or {@link Integer#MAX_VALUE} when unbounded. */
  public int capacity() {
    return capacity;
  }

  public boolean isUnbounded() {
    return capacity == UNBOUNDED;
  }

  /**
   * The open decoder for (file, device): a hit moves it to most-recently-used; a miss opens it
   * (outside the cache's bookkeeping if opening fails: nothing is inserted) and evicts the least
   * recently used decoders beyond the capacity.
   */
  public synchronized Decoder get(String file, Device device) {
    return get(file, device, DecoderSlot.SHARED);
  }

  /**
   * Like {@link #get(String, Device)} for one of several readers of the same file: each slot (each
   * live episode stream and camera of a shared v3.0 file) gets its own decoder, so readers at
   * different positions do not make each other seek.
   */
  public synchronized Decoder get(String file, Device device, DecoderSlot slot) {
    return get(file, device, slot, 1);
  }

  /**
   * Like {@link #get(String, Device, DecoderSlot)}, counted as {@code lookups} lookups: one decode
   * call for {@code lookups} samples counts as the reference's one lookup per sample and camera
   * (the first a miss when the decoder had to be opened, the others hits).
   */
  public synchronized Decoder get(String file, Device device, DecoderSlot slot, int lookups) {
    if (lookups < 1) {
      throw new IllegalArgumentException("lookups must be >= 1, not " + lookups);
    }
    Key key = new Key(file, device, slot);
    Decoder decoder = lookUp(key);
    boolean firstUse = openedUncounted.remove(key) || decoder == null;
    if (firstUse) {
      counters.miss();
    }
    if (decoder == null) {
      decoder = open(key);
    }
    counters.hits(firstUse ? lookups - 1 : lookups);
    return decoder;
  }

  /**
   * The decoder {@link #get} would return, without counting a lookup: for questions about the file
   * (where its GOPs start) that the reference's loader never asks. A decoder opened here counts its
   * miss at its first counted lookup.
   */
  public synchronized Decoder peek(String file, Device device, DecoderSlot slot) {
    Key key = new Key(file, device, slot);
    Decoder decoder = lookUp(key);
    if (decoder != null) {
      return decoder;
    }
    openedUncounted.add(key);
    return open(key);
  }

  private Decoder lookUp(Key key) {
    if (closed) {
      throw new IllegalStateException("decoder cache is closed");
    }
    return entries.get(key);
  }

  private Decoder open(Key key) {
    String file = key.file();
    Device device = key.device();
    Decoder decoder;
    Decoder sibling = null;
    for (Map.Entry<Key, Decoder> e : entries.entrySet()) {
      if (e.getKey().file().equals(file)) {
        sibling = e.getValue();
        break;
      }
    }
    decoder = opener.open(file, device, sibling);
    entries.put(key, decoder);
    evictBeyondCapacity();
    return decoder;
  }

  /**
   * Passes a read-ahead hint for {@code frame} of {@code file} to an open decoder of that file (any
   * reader's: they share the bytes), see {@link Decoder#prefetch}. Without one nothing happens:
   * opening would read the file's header now, which is what the hint should not wait for. Counts
   * neither a hit nor a miss.
   */
  public synchronized void prefetch(String file, Device device, int frame) {
    for (Map.Entry<Key, Decoder> e : entries.entrySet()) {
      if (e.getKey().file().equals(file) && e.getKey().device() == device) {
        e.getValue().prefetch(frame);
        return;
      }
    }
  }

  private void evictBeyondCapacity() {
    Iterator<Map.Entry<Key, Decoder>> it = entries.entrySet().iterator();
    while (entries.size() > capacity && it.hasNext()) {
      Map.Entry<Key, Decoder> entry = it.next();
      Decoder eldest = entry.getValue();
      openedUncounted.remove(entry.getKey());
      it.remove();
      counters.eviction();
      eldest.close();
    }
  }

  public synchronized boolean contains(String file, Device device) {
    return entries.containsKey(new Key(file, device, DecoderSlot.SHARED));
  }

  public synchronized int size() {
    return entries.size();
  }

  /** This cache's size with the (possibly shared) counters. */
  public synchronized DecoderCacheStats stats() {
    return new DecoderCacheStats(
        counters.hits(), counters.misses(), counters.evictions(), entries.size());
  }

  public DecoderCacheCounters counters() {
    return counters;
  }

  /** Decode statistics summed over the decoders currently open. */
  public synchronized DecodeStats openDecoderStats() {
    DecodeStats sum = DecodeStats.ZERO;
    for (Decoder d : entries.values()) {
      sum = sum.plus(d.stats());
    }
    return sum;
  }

  /** Closes every open decoder; the counters are kept. */
  public synchronized void clear() {
    List<Decoder> open = new ArrayList<>(entries.values());
    entries.clear();
    openedUncounted.clear();
    RuntimeException failure = null;
    for (Decoder d : open) {
      try {
        d.close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      clear();
      closed = true;
    }
  }
}
