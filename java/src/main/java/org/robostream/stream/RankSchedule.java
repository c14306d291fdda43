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
   * @param delivered how many of the first samples count as delivered; the rest are flagged {@code
   *     is_padding} (a padding batch: 0; {@link PlanParameters.RankBalance#EVEN} flags a rank's
   *     samples beyond the fewest any rank has)
   */
  public record Batch(int worker, int job, long[] samples, boolean padding, int delivered) {
    public Batch {
      if (delivered < 0 || delivered > samples.length || (padding && delivered != 0)) {
        throw new IllegalArgumentException(
            "delivered " + delivered + " of " + samples.length + " samples, padding " + padding);
      }
    }

    /** A batch whose samples are all delivered, or all flagged when it is a padding batch. */
    public Batch(int worker, int job, long[] samples, boolean padding) {
      this(worker, job, samples, padding, padding ? 0 : samples.length);
    }

    /** Whether sample {@code i} is flagged {@code is_padding}. */
    public boolean flagged(int i) {
      return i >= delivered;
    }
  }

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
