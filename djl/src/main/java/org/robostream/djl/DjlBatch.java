package org.robostream.djl;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.Batch;

/**
 * A DJL {@link Batch} whose arrays view a robostream batch's memory. Closing it closes the arrays
 * first (its own sub-manager) and then the robostream batch, whose memory returns to its pool: in
 * that order, so no array ever points at memory handed to the next batch.
 *
 * <p>Ownership: owns both; the trainer closes it (DJL's {@code EasyTrain} does after each step).
 * Threading: as DJL's batch, one consumer thread.
 */
public final class DjlBatch extends Batch {
  private final org.robostream.stream.Batch source;
  private boolean closed;

  DjlBatch(
      NDManager manager,
      NDList data,
      NDList labels,
      org.robostream.stream.Batch source,
      long progress,
      long progressTotal) {
    super(manager, data, labels, source.size(), null, null, progress, progressTotal);
    this.source = source;
  }

  /** The robostream batch behind the arrays (its epoch, index, strings such as {@code task}). */
  public org.robostream.stream.Batch source() {
    return source;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      super.close();
    } finally {
      source.close();
    }
  }
}
