package org.robostream.fetch;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.robostream.codec.DecodeResult;
import org.robostream.codec.HeldFrame;
import org.robostream.codec.HostPicture;
import org.robostream.codec.PicturePacker;
import org.robostream.codec.PictureReceiver;
import org.robostream.codec.RawPicture;
import org.robostream.codec.SwscaleConverter;
import org.robostream.framecache.FrameCache;
import org.robostream.framecache.FrameTarget;
import org.robostream.framecache.WriteStaging;
import org.robostream.frames.PictureHolder;
import org.robostream.source.VideoSources;

/**
 * One worker's way through the {@link FrameCache}: a fetch's frames that the cache holds are served
 * from it (their packed bytes read straight into a held block where the holder keeps pictures
 * packed, else seen as the picture the decoder gave), the others are decoded in one call and stored
 * as they come out. Served and decoded pictures reach the same {@link PictureHolder}, so what the
 * device makes of them — packed into the shuffle buffer on the CPU, converted into a held block on
 * CUDA — is the same bytes either way.
 *
 * <p>Not thread-safe: one per worker (it keeps a packing scratch block); {@link #close()} frees it.
 */
public final class CachedFetch implements AutoCloseable {
  private final FrameCache cache;
  private final FetchCounters counters;
  private final Function<Path, String> identities;
  private final Function<String, VideoFacts> known;
  private final java.util.Set<String> uncacheable = new java.util.HashSet<>(); // by identity
  private final Map<Path, Optional<String>> identityOf = new HashMap<>();
  private final Map<Path, Optional<String>> dataFileIdentityOf = new HashMap<>();
  private final PicturePacker packer = new PicturePacker();
  private final SwscaleConverter swscale = new SwscaleConverter();
  private final WriteStaging staging = new WriteStaging(); // also where frames are packed to store

  /** Served frames for a holder that does not keep them packed: read into the staging block. */
  private final FrameTarget scratch =
      new FrameTarget() {
        @Override
        public long take(long bytes) {
          return staging.block(bytes);
        }

        @Override
        public void giveBack(long address, long bytes) {
          // the staging block is reused as it is
        }
      };

  /**
   * What a picture of the file must be: its size and FFmpeg pixel format (-1: any size or format,
   * for images, whose format varies). A cached frame that is something else is a corrupt miss (its
   * slot is stored over): the slot's fields are as hostile as its bytes, and the CUDA frame device
   * writes a depth map's values by the picture's size.
   */
  record Expected(int width, int height, int pixelFormat) {
    static final Expected ANY = new Expected(-1, -1, -1);

    boolean accepts(HeldFrame f) {
      return !f.isConverted()
          && (width < 0 || (f.width() == width && f.height() == height))
          && (pixelFormat < 0 || f.pixelFormat() == pixelFormat);
    }
  }

  /** Decodes the frames at {@code positions}, picture j to {@code receiver} as request j. */
  @FunctionalInterface
  interface Decode {
    DecodeResult decode(int[] positions, PictureReceiver receiver);
  }

  /**
   * {@code identities}: what identifies a file's bytes (null: the file is not cached); {@code
   * known}: what a decoder of the dataset told about a video file (null before one opened it).
   */
  public CachedFetch(
      FrameCache cache,
      FetchCounters counters,
      Function<Path, String> identities,
      Function<String, VideoFacts> known) {
    this.cache = cache;
    this.counters = counters;
    this.identities = identities;
    this.known = known;
  }

  /**
   * The identity of a local data file (image features are read from the data Parquet, which is
   * local also for a Hub dataset: its mirror), asked once per file; null: not cached.
   */
  String dataFileIdentity(Path file) {
    return dataFileIdentityOf
        .computeIfAbsent(file, f -> Optional.ofNullable(VideoSources.localIdentity(f)))
        .orElse(null);
  }

  /** What a decoder of the dataset told about {@code file}, or null before one opened it. */
  VideoFacts known(String file) {
    return known.apply(file);
  }

  /** The identity of {@code file}'s bytes, asked once per file; null: not cached. */
  String identity(Path file) {
    return identityOf
        .computeIfAbsent(file, f -> Optional.ofNullable(identities.apply(f)))
        .orElse(null);
  }

  /**
   * Request i of {@code positions} (slots of the file {@code identity} names, which has {@code
   * fileFrames} frames) goes to {@code holder} as i: from the cache, or decoded by {@code decode}
   * and stored.
   *
   * @return each request's pts, as decoded (a served frame's was recorded when it was decoded)
   */
  double[] fetch(
      String identity,
      int fileFrames,
      Expected expected,
      int[] positions,
      PictureHolder holder,
      Decode decode) {
    int n = positions.length;
    if (uncacheable.contains(identity)) {
      return decode.decode(positions, holder).ptsSeconds();
    }
    double[] pts = new double[n];
    // The entry is held for the call (created at the first store when there is none yet).
    FrameCache.Entry[] entries = {cache.acquire(identity)};
    if (entries[0] != null && entries[0].frames() != fileFrames) {
      // Slots for another frame count under this identity: not this video's, never read.
      entries[0].release();
      uncacheable.add(identity);
      return decode.decode(positions, holder).ptsSeconds();
    }
    try {
      FrameCache.Entry entry = entries[0];
      int[] missed = new int[n];
      int misses = 0;
      // Served frames are read into memory of ours (never the cache's pages): held blocks where
      // the holder keeps pictures packed, else the staging block, converted before the next read.
      FrameTarget packed = holder.packedMemory();
      FrameTarget target = packed != null ? packed : scratch;
      for (int i = 0; i < n; i++) {
        HeldFrame f = entry == null ? null : entry.readFrame(positions[i], target);
        if (f != null && (!expected.accepts(f) || f.frameIndex() != positions[i])) {
          // another picture than the video's at this position: a corrupt miss, stored over
          entry.reject(positions[i], f);
          target.giveBack(f.address(), f.bytes());
          f = null;
        }
        if (f == null) {
          missed[misses++] = i;
          continue;
        }
        pts[i] = f.ptsSeconds();
        if (packed != null) {
          holder.holdPacked(i, f); // read into its block: held as it is
          continue;
        }
        RawPicture view =
            packer.view(f.address(), f.width(), f.height(), f.pixelFormat(), f.color());
        holder.accept(i, new HostPicture(view, swscale), f.ptsSeconds(), f.frameIndex());
      }
      counters.framesFromCache.addAndGet(n - misses);
      if (misses == 0) {
        return pts;
      }
      if (entry == null) {
        cache.recordMisses(misses); // no file yet: every lookup is a miss
      }
      int[] requests = Arrays.copyOf(missed, misses);
      int[] at = new int[misses];
      for (int j = 0; j < misses; j++) {
        at[j] = positions[requests[j]];
      }
      int[] lastStored = {-1};
      DecodeResult r =
          decode.decode(
              at,
              (j, picture, seconds, frameIndex) -> {
                holder.accept(requests[j], picture, seconds, frameIndex);
                if (at[j] != lastStored[0]) { // a frame asked twice is stored once
                  lastStored[0] = at[j];
                  store(
                      entries,
                      identity,
                      fileFrames,
                      at[j],
                      picture.raw(),
                      holder.lastPacked(),
                      seconds,
                      frameIndex);
                }
              });
      for (int j = 0; j < misses; j++) {
        pts[requests[j]] = r.ptsSeconds(j);
      }
      return pts;
    } finally {
      if (entries[0] != null) {
        entries[0].release();
      }
    }
  }

  /**
   * Stores {@code picture} as frame {@code position}: {@code packed}, the holder's packed frame, or
   * packed here (null).
   */
  private void store(
      FrameCache.Entry[] entries,
      String identity,
      int fileFrames,
      int position,
      RawPicture picture,
      HeldFrame packed,
      double seconds,
      long frameIndex) {
    long bytes =
        PicturePacker.packedBytes(picture.width(), picture.height(), picture.pixelFormat());
    FrameCache.Entry e =
        entries[0] != null ? entries[0] : cache.acquireOrCreate(identity, fileFrames, bytes);
    if (e == null) {
      uncacheable.add(identity); // not tried again at every frame
      return;
    }
    entries[0] = e; // released by the caller, also when the store below fails
    if (packed != null) {
      e.store(position, packed, staging); // the shuffle buffer's block: written through staging
    } else { // packed here, straight into the staging block: written from there
      e.store(position, packer.pack(picture, staging.block(bytes), seconds, frameIndex), null);
    }
  }

  @Override
  public void close() {
    staging.close();
    packer.close();
    swscale.close();
  }
}
