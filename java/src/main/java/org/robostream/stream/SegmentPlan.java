package org.robostream.stream;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How one segment of an epoch (all of it, or what is left after an elastic resume) is split over
 * {@code world} ranks x {@code workers} threads. A pure function of its inputs; immutable.
 *
 * <p>Episodes, shuffled by {@code SplitMix64(derive(seed, epoch, segment))} or ascending, go whole
 * to the slot ({@code rank * workers + worker}) with the fewest frames. Each slot's {@link
 * SlotSampler} orders its samples into batches; a rank interleaves its workers round-robin, like a
 * data loader. Ranks yield equal batch counts: {@link PlanParameters.RankBalance#PAD} adds padding
 * batches, {@link PlanParameters.RankBalance#DROP} cuts to the minimum, {@link
 * PlanParameters.RankBalance#EVEN} pads and flags samples beyond the fewest.
 */
public final class SegmentPlan {
  private final PlanParameters params;
  private final int buffer;
  private final long epoch;
  private final int segment;
  private final int world;
  private final int workers;
  private final List<EpisodePiece> pool;
  private final List<List<EpisodePiece>> slots;
  private final long[] slotFrames;
  private final int batchesPerRank;
  private final long evenSamples; // the fewest samples a rank's real batches hold

  /** A plan whose reservoirs hold the parameters' {@code bufferSize}. */
  public SegmentPlan(
      List<EpisodePiece> pool,
      PlanParameters params,
      long epoch,
      int segment,
      int world,
      int workers) {
    this(pool, params, epoch, segment, world, workers, params.bufferSize());
  }

  /**
   * @param buffer samples each slot's reservoir holds: the parameters' {@code bufferSize}, or fewer
   *     when the memory budget sized it down ({@link ShuffleBufferSizing})
   */
  public SegmentPlan(
      List<EpisodePiece> pool,
      PlanParameters params,
      long epoch,
      int segment,
      int world,
      int workers,
      int buffer) {
    if (world < 1 || workers < 1 || buffer < 1) {
      throw new IllegalArgumentException("world size, workers and buffer must be >= 1");
    }
    this.buffer = buffer;
    this.params = params;
    this.epoch = epoch;
    this.segment = segment;
    this.world = world;
    this.workers = workers;
    this.pool = List.copyOf(pool);
    List<EpisodePiece> order = new ArrayList<>(this.pool);
    order.sort((a, b) -> Integer.compare(a.episode(), b.episode()));
    if (params.shuffle()) {
      long[] idx = new long[order.size()];
      for (int i = 0; i < idx.length; i++) {
        idx[i] = i;
      }
      new SplitMix64(SplitMix64.derive(params.seed(), epoch, segment)).shuffle(idx, idx.length);
      List<EpisodePiece> shuffled = new ArrayList<>(order.size());
      for (long i : idx) {
        shuffled.add(order.get((int) i));
      }
      order = shuffled;
    }
    int n = world * workers;
    slots = new ArrayList<>(n);
    slotFrames = new long[n];
    for (int s = 0; s < n; s++) {
      slots.add(new ArrayList<>());
    }
    for (EpisodePiece piece : order) {
      int best = 0;
      for (int s = 1; s < n; s++) {
        if (slotFrames[s] < slotFrames[best]) {
          best = s;
        }
      }
      slots.get(best).add(piece);
      slotFrames[best] += piece.size();
    }
    int max = 0;
    int min = Integer.MAX_VALUE;
    for (int r = 0; r < world; r++) {
      int b = realBatches(r);
      max = Math.max(max, b);
      min = Math.min(min, b);
    }
    batchesPerRank = params.rankBalance() == PlanParameters.RankBalance.DROP ? min : max;
    long fewest = Long.MAX_VALUE;
    int empty = -1;
    for (int r = 0; r < world; r++) {
      long samples = realSamples(r);
      if (samples < fewest) {
        fewest = samples;
        empty = samples == 0 ? r : empty;
      }
    }
    evenSamples = fewest;
    if (params.rankBalance() == PlanParameters.RankBalance.EVEN
        && segment == 0
        && fewest == 0
        && !pool.isEmpty()) {
      // Every rank would deliver nothing, every epoch: a training loop that cycles its data would
      // wait forever. Said when the plan is first made (the loader's open), never mid-epoch.
      throw new IllegalArgumentException(
          "rank balance EVEN over "
              + world
              + " ranks: rank "
              + empty
              + " gets no samples (the "
              + pool.size()
              + " episodes go whole to ranks"
              + (params.dropLast() ? ", and drop_last leaves no whole batch" : "")
              + "), so every rank would deliver none; use fewer ranks (or fewer DataLoader"
              + " workers: each is a rank of its own), more episodes, or RankBalance.PAD (repeats"
              + " flagged is_padding)");
    }
  }

  public int world() {
    return world;
  }

  /** Samples each slot's reservoir holds. */
  public int buffer() {
    return buffer;
  }

  public int workers() {
    return workers;
  }

  public int segment() {
    return segment;
  }

  /** Batches every rank yields in this segment. */
  public int batchesPerRank() {
    return batchesPerRank;
  }

  /** The pieces of (rank, worker), in the order its streams open them. */
  public List<EpisodePiece> piecesOf(int rank, int worker) {
    return List.copyOf(slots.get(slot(rank, worker)));
  }

  /** A fresh sampler for (rank, worker), positioned before its first event. */
  SlotSampler sampler(int rank, int worker) {
    return new SlotSampler(
        slots.get(slot(rank, worker)),
        params.shuffle(),
        buffer,
        params.maxNumShards(),
        new SplitMix64(
            SplitMix64.derive(params.seed(), epoch, segment, world, workers, slot(rank, worker))));
  }

  private int slot(int rank, int worker) {
    if (rank < 0 || rank >= world || worker < 0 || worker >= workers) {
      throw new IllegalArgumentException(
          "rank "
              + rank
              + " / worker "
              + worker
              + " outside world "
              + world
              + " x workers "
              + workers);
    }
    return rank * workers + worker;
  }

  private int workerBatches(int rank, int worker) {
    long frames = slotFrames[slot(rank, worker)];
    long b =
        params.dropLast()
            ? frames / params.batchSize()
            : (frames + params.batchSize() - 1) / params.batchSize();
    return (int) b;
  }

  private long realSamples(int rank) {
    long sum = 0;
    for (int w = 0; w < workers; w++) {
      long frames = slotFrames[slot(rank, w)];
      sum += params.dropLast() ? frames / params.batchSize() * params.batchSize() : frames;
    }
    return sum;
  }

  private int realBatches(int rank) {
    int sum = 0;
    for (int w = 0; w < workers; w++) {
      sum += workerBatches(rank, w);
    }
    return sum;
  }

  /** The batches of {@code rank} in delivery order, with their samples (simulated, no decode). */
  public RankSchedule schedule(int rank) {
    int[] counts = new int[workers];
    List<long[]> perWorkerOrder = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      counts[w] = workerBatches(rank, w);
      perWorkerOrder.add(
          SlotSampler.deliveryOrder(
              slots.get(slot(rank, w)),
              params.shuffle(),
              buffer,
              params.maxNumShards(),
              new SplitMix64(
                  SplitMix64.derive(
                      params.seed(), epoch, segment, world, workers, slot(rank, w)))));
    }
    List<RankSchedule.Batch> batches = new ArrayList<>();
    int bs = params.batchSize();
    for (int round = 0; batches.size() < batchesPerRank; round++) {
      boolean any = false;
      for (int w = 0; w < workers && batches.size() < batchesPerRank; w++) {
        if (round < counts[w]) {
          long[] order = perWorkerOrder.get(w);
          int from = round * bs;
          int to = Math.min(order.length, from + bs);
          batches.add(new RankSchedule.Batch(w, round, Arrays.copyOfRange(order, from, to), false));
          any = true;
        }
      }
      if (!any) {
        break;
      }
    }
    int[] jobs = counts.clone();
    long[] real = batches.stream().flatMapToLong(b -> Arrays.stream(b.samples())).toArray();
    long[] source = real.length > 0 ? real : naturalPoolOrder();
    int next = 0;
    for (int p = 0; batches.size() < batchesPerRank; p++) {
      int w = p % workers;
      long[] samples = new long[bs];
      for (int i = 0; i < bs; i++) {
        samples[i] = source[next++ % source.length];
      }
      batches.add(new RankSchedule.Batch(w, jobs[w]++, samples, true));
    }
    return new RankSchedule(
        rank,
        params.rankBalance() == PlanParameters.RankBalance.EVEN
            ? evened(batches, evenSamples)
            : batches);
  }

  /** {@code batches} with the samples after the first {@code keep} real ones flagged. */
  private static List<RankSchedule.Batch> evened(List<RankSchedule.Batch> batches, long keep) {
    List<RankSchedule.Batch> out = new ArrayList<>(batches.size());
    long left = keep;
    for (RankSchedule.Batch b : batches) {
      if (b.padding()) {
        out.add(b);
        continue;
      }
      int delivered = (int) Math.min(b.samples().length, left);
      left -= delivered;
      out.add(new RankSchedule.Batch(b.worker(), b.job(), b.samples(), false, delivered));
    }
    return out;
  }

  private long[] naturalPoolOrder() {
    List<EpisodePiece> sorted = new ArrayList<>(pool);
    sorted.sort((a, b) -> Integer.compare(a.episode(), b.episode()));
    return sorted.stream()
        .flatMapToLong(p -> Arrays.stream(p.frames()).mapToLong(f -> Samples.of(p.episode(), f)))
        .toArray();
  }
}
