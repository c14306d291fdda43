package org.robostream.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The sample order of one (rank, worker) slot, one event at a time: which sample enters the shuffle
 * buffer (produced by an episode stream) and which leaves it (delivered), so a worker decodes
 * frames in stream order and delivers them later.
 *
 * <p>Shuffled (the reference's two-level sampling, §5.3): each step takes the next frame of a
 * uniformly picked live stream (up to {@code maxLiveStreams}; an exhausted one is replaced in
 * place, or removed) into a reservoir of {@code bufferSize}, which, once full, delivers a random
 * slot; at the end the rest is shuffled ({@link SplitMix64#shuffle}) and delivered.
 *
 * <p>Not shuffled: episodes in order, frames ascending, each delivered at once. Not thread-safe.
 */
final class SlotSampler {
  private final boolean shuffle;
  private final SplitMix64 rng;
  private final int bufferSize;
  private final Deque<EpisodePiece> queue;
  private final List<int[]> live = new ArrayList<>(); // per live piece: {next position in it}
  private final List<EpisodePiece> livePieces = new ArrayList<>();
  private final long[] buffer;
  private int buffered;
  private boolean flushing;
  private int flushPosition;
  private long entered = -1;
  private long emitted = -1;

  public SlotSampler(
      List<EpisodePiece> pieces,
      boolean shuffle,
      int bufferSize,
      int maxLiveStreams,
      SplitMix64 rng) {
    if (bufferSize < 1 || maxLiveStreams < 1) {
      throw new IllegalArgumentException("buffer size and live streams must be >= 1");
    }
    this.shuffle = shuffle;
    this.rng = rng;
    this.bufferSize = bufferSize;
    this.queue = new ArrayDeque<>();
    for (EpisodePiece p : pieces) {
      if (p.size() > 0) {
        queue.add(p);
      }
    }
    this.buffer = shuffle ? new long[bufferSize] : new long[0];
    int streams = shuffle ? maxLiveStreams : 1;
    while (livePieces.size() < streams && !queue.isEmpty()) {
      livePieces.add(queue.poll());
      live.add(new int[] {0});
    }
  }

  /** Moves to the next event; false when the slot has delivered everything. */
  public boolean advance() {
    entered = -1;
    emitted = -1;
    if (!livePieces.isEmpty()) {
      int i = shuffle ? rng.nextInt(livePieces.size()) : 0;
      EpisodePiece piece = livePieces.get(i);
      int[] cursor = live.get(i);
      long sample = Samples.of(piece.episode(), piece.frameAt(cursor[0]++));
      if (cursor[0] == piece.size()) {
        if (!queue.isEmpty()) {
          livePieces.set(i, queue.poll());
          live.set(i, new int[] {0});
        } else {
          livePieces.remove(i);
          live.remove(i);
        }
      }
      entered = sample;
      if (!shuffle) {
        emitted = sample;
      } else if (buffered < bufferSize) {
        buffer[buffered++] = sample;
      } else {
        int j = rng.nextInt(bufferSize);
        emitted = buffer[j];
        buffer[j] = sample;
      }
      return true;
    }
    if (!flushing) {
      rng.shuffle(buffer, buffered);
      flushing = true;
    }
    if (flushPosition < buffered) {
      emitted = buffer[flushPosition++];
      return true;
    }
    return false;
  }

  /** The sample produced by this event, or -1 (while the buffer drains). */
  public long entered() {
    return entered;
  }

  /** The sample delivered by this event, or -1 (while the buffer fills). */
  public long emitted() {
    return emitted;
  }

  /** Every sample in delivery order (runs the sampler to its end). */
  public static long[] deliveryOrder(
      List<EpisodePiece> pieces,
      boolean shuffle,
      int bufferSize,
      int maxLiveStreams,
      SplitMix64 rng) {
    int total = pieces.stream().mapToInt(EpisodePiece::size).sum();
    long[] out = new long[total];
    int n = 0;
    SlotSampler s = new SlotSampler(pieces, shuffle, bufferSize, maxLiveStreams, rng);
    while (s.advance()) {
      if (s.emitted() >= 0) {
        out[n++] = s.emitted();
      }
    }
    return out;
  }
}
