package org.robostream.stream;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns a {@link StreamState} into the plan to continue with. Same world size, workers and shuffle
 * buffer as the last segment: that segment's plan, skipping the batches already consumed, so the
 * continuation equals the uninterrupted run sample for sample. Another world size, worker count or
 * buffer (the memory budget sizes it: {@link ShuffleBufferSizing}): every sample the old ranks
 * consumed (their first {@code batches} batches, padding excluded, replayed with the buffer their
 * segment recorded) is taken out of the pool and the rest of the epoch becomes a new segment
 * planned over the new ranks, so it is delivered exactly once. Stateless.
 */
final class ResumePlanner {
  private ResumePlanner() {}

  /** The segment to run and how many of its batches every rank has already consumed. */
  public record Position(SegmentPlan plan, int consumedBatches, List<StreamState.Segment> prior) {}

  /**
   * As {@link #resolve(List, PlanParameters, long, List, int, int, int)} with the plan's buffer.
   */
  public static Position resolve(
      List<EpisodePiece> epochPool,
      PlanParameters params,
      long epoch,
      List<StreamState.Segment> segments,
      int world,
      int workers) {
    return resolve(epochPool, params, epoch, segments, world, workers, params.bufferSize());
  }

  /**
   * @param buffer the reservoir size of a new segment (the plan's {@code buffer_size}, or fewer)
   */
  public static Position resolve(
      List<EpisodePiece> epochPool,
      PlanParameters params,
      long epoch,
      List<StreamState.Segment> segments,
      int world,
      int workers,
      int buffer) {
    List<EpisodePiece> pool = epochPool;
    for (int i = 0; i < segments.size(); i++) {
      StreamState.Segment s = segments.get(i);
      SegmentPlan plan =
          new SegmentPlan(pool, params, epoch, i, s.world(), s.workers(), s.bufferOf(params));
      if (s.batches() > plan.batchesPerRank()) {
        // More than the segment had: no run made this state (it would end the epoch empty).
        throw new IllegalArgumentException(
            "segments["
                + i
                + "].batches is "
                + s.batches()
                + ", but that segment ("
                + s.world()
                + " ranks, "
                + s.workers()
                + " workers) had only "
                + plan.batchesPerRank()
                + " batches per rank: the state is not one of this dataset's");
      }
      boolean last = i == segments.size() - 1;
      if (last && s.world() == world && s.workers() == workers && s.bufferOf(params) == buffer) {
        return new Position(plan, s.batches(), segments.subList(0, i));
      }
      pool = remove(pool, consumed(plan, s.batches()));
    }
    return new Position(
        new SegmentPlan(pool, params, epoch, segments.size(), world, workers, buffer), 0, segments);
  }

  /**
   * Samples (not padding, nor flagged by {@link PlanParameters.RankBalance#EVEN}) that the first
   * {@code batches} batches of every rank delivered: a flagged sample was not delivered, so an
   * elastic resume plans it again.
   */
  static Set<Long> consumed(SegmentPlan plan, int batches) {
    Set<Long> out = new HashSet<>();
    for (int r = 0; r < plan.world(); r++) {
      List<RankSchedule.Batch> list = plan.schedule(r).batches();
      for (int b = 0; b < Math.min(batches, list.size()); b++) {
        RankSchedule.Batch batch = list.get(b);
        Arrays.stream(batch.samples()).limit(batch.delivered()).forEach(out::add);
      }
    }
    return out;
  }

  static List<EpisodePiece> remove(List<EpisodePiece> pool, Set<Long> taken) {
    if (taken.isEmpty()) {
      return pool;
    }
    List<EpisodePiece> out = new ArrayList<>();
    for (EpisodePiece p : pool) {
      int[] keep =
          Arrays.stream(p.frames())
              .filter(f -> !taken.contains(Samples.of(p.episode(), f)))
              .toArray();
      if (keep.length > 0) {
        out.add(new EpisodePiece(p.episode(), keep));
      }
    }
    return out;
  }
}
