package org.robostream.stream;

import java.util.List;

/**
 * One rank's batches for a segment, in delivery order: which worker builds each (and as its how
 * many-th job) and which samples it holds. Immutable.
 */
public record RankSchedule(int rank, List<Batch> batches) {
  public RankSchedule {
    batches = List.copyOf(batches);
  }

  /**
   * @param job the batch's position among the batches of its worker
   * @param padding true for batches that repeat samples to even out ranks
   */
  public record Batch(int worker, int job, long[] samples, boolean padding) {}

  public int size() {
    return batches.size();
  }

  /** Batches of {@code worker}, in its job order. */
  public List<Batch> batchesOf(int worker) {
    return batches.stream()
        .filter(b -> b.worker() == worker)
        .sorted((a, b) -> Integer.compare(a.job(), b.job()))
        .toList();
  }
}
