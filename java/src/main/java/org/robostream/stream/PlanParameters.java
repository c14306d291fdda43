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
    DROP,
    /**
     * Every rank delivers as many samples as the rank with the fewest: batches as with {@link
     * #PAD}, and each rank's samples beyond that count flagged {@code is_padding} like the repeats.
     * A consumer that skips flagged samples (the Python bridge's per-sample iteration) then yields
     * the same number of samples on every rank, each at most once, so DDP's ranks end an epoch
     * together. With one rank nothing is flagged but the repeats PAD would add (there are none).
     */
    EVEN
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
