package org.robostream.frames;

import org.robostream.arrow.BatchMemoryPool;

/**
 * Frames waiting in a worker's shuffle buffer on the loader's batch device: blocks come from a
 * {@link BatchMemoryPool} (device memory of the GPU that decodes them, or host memory), which
 * recycles them by size, so a steady stream allocates nothing after its first epoch. The budget
 * bounds the bytes held. Not thread-safe: one worker thread at a time; {@link #close()} returns
 * every held block to the pool (the pool frees them when the dataset closes it).
 */
final class PoolFrameMemory extends HeldBlocks {
  private final BatchMemoryPool pool;

  PoolFrameMemory(BatchMemoryPool pool, long budgetBytes) {
    super(budgetBytes);
    this.pool = pool;
  }

  @Override
  long allocate(long bytes) {
    return pool.acquire(bytes);
  }

  @Override
  void recycle(long address, long bytes) {
    pool.release(address, bytes);
  }

  @Override
  public void close() {
    releaseAll();
  }
}
