package org.robostream.stream;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;
import org.bytedeco.javacpp.Pointer;

/**
 * Recycles the memory of frame tensors. A batch's frame columns are megabytes each; allocating
 * them fresh from Arrow zeroes them and, as the C allocator hands large blocks back to the
 * kernel, page-faults every page again for every batch (profiled: as much kernel time as dav1d
 * itself). Blocks come from here as Arrow foreign allocations, uninitialised, and return here
 * when the consumer closes the batch, up to {@code maxIdle} idle blocks per size.
 * Thread-safe.
 */
final class TensorMemoryPool implements AutoCloseable {
  private final int maxIdle;
  private final Map<Long, Deque<Pointer>> idle = new HashMap<>();
  private final Map<Long, Deque<Pointer>> idleOnes = new HashMap<>();
  private boolean closed;

  TensorMemoryPool(int maxIdle) {
    this.maxIdle = maxIdle;
  }

  /** An uninitialised buffer of {@code bytes} accounted to {@code allocator}. */
  ArrowBuf take(BufferAllocator allocator, long bytes) {
    return take(allocator, bytes, idle, false);
  }

  /**
   * A buffer of {@code bytes} with every bit set: the validity bitmap of a column without nulls
   * (Arrow would otherwise allocate and fill a fresh one per column and batch). Consumers must
   * not write into it; its blocks only ever hold ones.
   */
  ArrowBuf takeAllValid(BufferAllocator allocator, long bytes) {
    return take(allocator, bytes, idleOnes, true);
  }

  private ArrowBuf take(BufferAllocator allocator, long bytes, Map<Long, Deque<Pointer>> from,
      boolean ones) {
    Pointer block;
    synchronized (this) {
      Deque<Pointer> q = from.get(bytes);
      block = q == null ? null : q.poll();
    }
    if (block == null) {
      block = Pointer.malloc(Math.max(1, bytes));
      if (block == null || block.isNull()) {
        throw new OutOfMemoryError("cannot allocate " + bytes + " bytes for a frame column");
      }
      if (ones) {
        Pointer.memset(block, 0xFF, bytes);
      }
    }
    Pointer owned = block;
    return allocator.wrapForeignAllocation(new ForeignAllocation(bytes, owned.address()) {
      @Override
      protected void release0() {
        giveBack(from, bytes, owned);
      }
    });
  }

  private synchronized void giveBack(Map<Long, Deque<Pointer>> to, long bytes, Pointer block) {
    Deque<Pointer> q = to.computeIfAbsent(bytes, b -> new ArrayDeque<>());
    if (closed || q.size() >= maxIdle) {
      Pointer.free(block);
    } else {
      q.push(block);
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    idle.values().forEach(q -> q.forEach(Pointer::free));
    idleOnes.values().forEach(q -> q.forEach(Pointer::free));
    idle.clear();
    idleOnes.clear();
  }
}
