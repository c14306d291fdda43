package org.robostream.bench;

import org.robostream.stream.Batch;

/**
 * The benchmark's dummy consumer: moves a batch to the training device, as the reference's consumer
 * calls {@code tensor.to(device)} on every tensor of a batch, so that the measured loop pays for
 * reading every byte a trainer reads. {@link TrainingDevice#open()} picks the implementation.
 *
 * <p>Ownership: a transfer owns its destination memory and frees it on {@link #close()}
 * (idempotent). Threading: not thread-safe; one per consumer thread.
 */
public interface BatchTransfer extends AutoCloseable {
  /**
   * Moves {@code batch} (still owned by the caller) to the device and returns the bytes moved; the
   * copy is complete, on the device too, when this returns.
   */
  long copy(Batch batch);

  @Override
  void close();
}
