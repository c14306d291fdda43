package org.robostream.stream;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.bytedeco.javacpp.Pointer;

/**
 * Host memory for decoded pictures waiting in a worker's shuffle buffer, kept packed as the codec
 * produced them (YUV 4:2:0 is half the bytes of RGB) and converted to RGB only when their batch
 * is built. Blocks are malloc'ed (not zeroed: every byte is written) and recycled by size, so a
 * steady stream touches the same pages again instead of faulting in new ones. The budget is
 * checked before a run of samples is decoded ({@link #canHold}); blocks themselves are never
 * refused. Kept across epochs (the dataset hands worker i the same store every epoch, so later
 * epochs reuse the pages). Not thread-safe: used by one worker thread at a time;
 * {@link #close()} frees everything.
 */
final class FrameStore implements FrameMemory {
  private final long budgetBytes;
  private final Map<Long, Deque<Pointer>> idle = new HashMap<>();
  private final Map<Long, Pointer> live = new HashMap<>();
  private long heldBytes;

  FrameStore(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  @Override
  public boolean canHold(long bytes) {
    return heldBytes + bytes <= budgetBytes;
  }

  @Override
  public long take(long bytes) {
    Deque<Pointer> q = idle.get(bytes);
    Pointer p = q == null ? null : q.poll();
    if (p == null) {
      p = Pointer.malloc(Math.max(1, bytes));
      if (p == null || p.isNull()) {
        throw new OutOfMemoryError("cannot allocate " + bytes + " bytes for decoded frames");
      }
      p.capacity(bytes); // remembered for releaseAll()
    }
    live.put(p.address(), p);
    heldBytes += bytes;
    return p.address();
  }

  @Override
  public void release(long address, long bytes) {
    Pointer p = live.remove(address);
    if (p == null) {
      throw new IllegalStateException("block " + address + " is not held");
    }
    heldBytes -= bytes;
    idle.computeIfAbsent(bytes, b -> new ArrayDeque<>()).push(p);
  }

  /** Returns every held block to the idle lists (end of an epoch, or a stopped run). */
  @Override
  public void releaseAll() {
    live.forEach((address, p) -> idle.computeIfAbsent(p.capacity(), b -> new ArrayDeque<>())
        .push(p));
    live.clear();
    heldBytes = 0;
  }

  @Override
  public long heldBytes() {
    return heldBytes;
  }

  @Override
  public void close() {
    live.values().forEach(Pointer::free);
    idle.values().forEach(q -> q.forEach(Pointer::free));
    live.clear();
    idle.clear();
  }
}
