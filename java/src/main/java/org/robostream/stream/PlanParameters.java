package org.robostream.stream;

/**
 * The parameters that, with the dataset's episodes, the epoch and (rank, world, workers), fix the
 * sample order completely. Immutable.
 *
 * @param rankBalance how ranks with fewer batches are evened out so every rank yields the same
 *     number of batches per epoch
 */
public record PlanParameters(
    long seed,
    boolean shuffle,
    int bufferSize,
    int maxNumShards,
    int batchSize,
    boolean dropLast,
    RankBalance rankBalance) {

  /** Evening out batch counts across ranks. */
  public enum RankBalance {
    /** Ranks with fewer batches repeat samples (flagged {@code is_padding}) up to the maximum. */
    PAD,
    /** Ranks with more batches stop at the minimum; the surplus samples are not delivered. */
    DROP
  }

  public PlanParameters {
    if (bufferSize < 1 || maxNumShards < 1 || batchSize < 1) {
      throw new IllegalArgumentException(
          "bufferSize, maxNumShards and batchSize must be >= 1,"
              + " got "
              + bufferSize
              + ", "
              + maxNumShards
              + " and "
              + batchSize);
    }
  }
}
