package org.robostream.framecache;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.robostream.ByteSize;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one {@link FrameCache} reserves, and whether its budget holds it: the frame positions this
 * process reads of each video ({@link FrameCache#expect}), the bytes each video's file needs, which
 * files in the folder are this process's videos, and the shortfall: reservations larger than the
 * whole budget, files it reads evicted to make room for others it reads. A shortfall is said once,
 * in one warning naming what is needed, what there is, and the option that raises it: a cache too
 * small for what it must hold otherwise decodes every epoch again, silently.
 *
 * <p>Threading: called under its cache's lock; the counters are readable from any thread.
 */
final class Reservations {
  private static final Logger LOG = LoggerFactory.getLogger(FrameCache.class);

  private final Path dir;
  private final FrameCacheOptions options;
  // What this process reads of each video, by identity: its file keeps slots for these only.
  private final Map<String, FrameSpans> expected = new HashMap<>();
  // Files there that lack an expected position: replaced by one that also keeps theirs.
  private final Map<String, FrameSpans> lacking = new HashMap<>();
  // The bytes each video's file takes (made or refused), by identity.
  private final Map<String, Long> needs = new HashMap<>();
  // File name -> identity of the videos this process reads.
  private final Map<String, String> own = new HashMap<>();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong ownEvictions = new AtomicLong();
  private final AtomicLong needed = new AtomicLong();
  private final AtomicBoolean warned = new AtomicBoolean();

  Reservations(Path dir, FrameCacheOptions options) {
    this.dir = dir;
    this.options = options;
  }

  /** Adds {@code positions} to what is read of {@code identity}; returns all that is. */
  FrameSpans expect(String identity, FrameSpans positions) {
    own.put(FrameCache.fileName(identity), identity);
    return expected.merge(identity, positions, FrameSpans::union);
  }

  /** The positions read of a video of {@code frames}, or null when none were named. */
  FrameSpans wanted(String identity, int frames) {
    FrameSpans s = expected.get(identity);
    return s == null ? null : s.within(frames);
  }

  /**
   * Whether the file there for {@code identity}, keeping {@code has} of a video of {@code frames},
   * lacks a position read; if so it is remembered, to be replaced by a file for both.
   */
  boolean lacks(String identity, FrameSpans has, int frames) {
    FrameSpans want = wanted(identity, frames);
    if (want == null || has.covers(want)) {
      return false;
    }
    lacking.put(identity, has);
    return true;
  }

  /**
   * What a new file of {@code identity} keeps: the positions read (every frame when none were
   * named), and those of a file there made for other spans when both fit the budget together, so
   * that processes reading different episodes of one video share one file that only grows.
   */
  FrameSpans plan(String identity, int frames, long slotBytes) {
    FrameSpans want = wanted(identity, frames);
    if (want == null) {
      want = FrameSpans.whole(frames);
    }
    FrameSpans had = lacking.remove(identity);
    FrameSpans other = had == null ? null : had.within(frames);
    if (other != null) {
      FrameSpans both = want.union(other);
      if (CacheFile.fileBytes(both, frames, slotBytes) <= options.maxBytes()) {
        return both;
      }
    }
    return want;
  }

  /** Records that the file of {@code identity} needs {@code bytes} of the budget. */
  void need(String identity, long bytes) {
    Long before = needs.put(identity, bytes);
    needed.addAndGet(bytes - (before == null ? 0 : before));
  }

  /** Records a file made for {@code identity}: one of this process's videos. */
  void made(String identity) {
    own.put(FrameCache.fileName(identity), identity);
  }

  /** Counts and says that the {@code frames} read of {@code identity} need more than the budget. */
  void refused(String identity, int frames, long bytes) {
    refused.incrementAndGet();
    tooSmall(
        "the "
            + frames
            + " frames it reads of "
            + video(identity)
            + " need "
            + ByteSize.describe(bytes)
            + " on their own, more than the whole cache");
  }

  /**
   * Counts and says it when {@code evicted}, removed to make room for {@code identity}'s file, is
   * another video this process reads: the budget holds less than they need together.
   */
  void evicted(Path evicted, String identity) {
    String read = own.get(evicted.getFileName().toString());
    if (read == null || read.equals(identity)) {
      return; // another process's file (least recently used, as ever), or its own older copy
    }
    ownEvictions.incrementAndGet();
    tooSmall(
        "it evicted the frames of "
            + video(read)
            + ", which it reads every epoch, to make room for those of "
            + video(identity));
  }

  /** Reservations refused as larger than the whole budget. */
  long refusals() {
    return refused.get();
  }

  /** Files this process reads that it evicted to make room for others it reads. */
  long ownEvictions() {
    return ownEvictions.get();
  }

  /** What the files this process reserved, or tried to, take together. */
  long needed() {
    return needed.get();
  }

  /** Says once that the cache cannot hold what this process reads ({@code what}). */
  private void tooSmall(String what) {
    if (!warned.compareAndSet(false, true)) {
      return;
    }
    LOG.warn(
        "frame cache {}: too small for the frames this loader reads: {}. The cache holds {};"
            + " the files this loader reserved so far need {} together. Frames that do not fit are"
            + " decoded again every epoch. Raise it with {} to at least what"
            + " frameCacheStats().neededBytes() reports after the first epoch (frames stored"
            + " packed: width x height x 1.5 bytes each for yuv420p, per camera)",
        dir,
        what,
        ByteSize.describe(options.maxBytes()),
        ByteSize.describe(needed.get()),
        option());
  }

  /** The option that sizes this cache, as the CLI and the library spell it. */
  private String option() {
    if (options.isPrivateMemory()) {
      return "--frame-cache memory:SIZE (library: FrameCacheOptions.memory(bytes))";
    }
    if (options.isDefaultShared()) {
      return "--frame-cache shared:SIZE (library: FrameCacheOptions.shared(bytes))";
    }
    return "--frame-cache "
        + options.directory()
        + ":SIZE (library: FrameCacheOptions.directory(folder, bytes))";
  }

  /** The video an identity names, for messages: a local file's path, a remote file's URL. */
  private static String video(String identity) {
    int bar = identity.indexOf('|');
    String named = bar < 0 ? identity : identity.substring(0, bar);
    return named.startsWith("file:") ? named.substring("file:".length()) : named;
  }
}
