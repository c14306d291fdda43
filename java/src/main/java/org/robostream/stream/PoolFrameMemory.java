package org.robostream.stream;

import java.util.HashMap;
import java.util.Map;
import org.robostream.arrow.BatchMemoryPool;

/**
 * Frames waiting in a worker's shuffle buffer on the loader's batch device: blocks come from the
 * {@link BatchMemoryPool} (device memory of the GPU that decodes them, or host memory), which
 * recycles them by size, so a steady stream allocates nothing after its first epoch. The budget
 * bounds the bytes held. Not thread-safe: one worker thread at a time; {@link #close()} returns
 * every held block to the pool (the pool frees them when the dataset closes it).
 */
final class PoolFrameMemory implements FrameMemory {
  private final BatchMemoryPool pool;
  private final long budgetBytes;
  private final Map<Long, Long> live = new HashMap<>(); // address -> bytes
  private long heldBytes;

  PoolFrameMemory(BatchMemoryPool pool, long budgetBytes) {
    this.pool = pool;
    this.budgetBytes = budgetBytes;
  }

  @Override
  public boolean canHold(long bytes) {
    return heldBytes + bytes <= budgetBytes;
  }

  @Override
  public long take(long bytes) {
    long address = pool.acquire(bytes);
    live.put(address, bytes);
    heldBytes += bytes;
    return address;
  }

  @Override
  public void release(long address, long bytes) {
    Long held = live.remove(address);
    if (held == null || held != bytes) {
      throw new IllegalStateException("block " + address + " of " + bytes + " bytes is not held");
    }
    heldBytes -= bytes;
    pool.release(address, bytes);
  }

  @Override
  public void releaseAll() {
    live.forEach(pool::release);
    live.clear();
    heldBytes = 0;
  }

  @Override
  public long heldBytes() {
    return heldBytes;
  }

  @Override
  public void close() {
    releaseAll();
  }
}
