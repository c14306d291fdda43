package org.robostream.frames;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.bytedeco.javacpp.Pointer;
import org.robostream.nativecore.NativeAddress;

/**
 * Host memory for decoded pictures waiting in a worker's shuffle buffer, kept packed as the codec
 * produced them (YUV 4:2:0 is half the bytes of RGB) and converted to RGB only when their batch is
 * built. Blocks are malloc'ed (not zeroed: every byte is written) and recycled by size, so a steady
 * stream touches the same pages again instead of faulting in new ones. The budget is checked before
 * a run of samples is decoded ({@link #canHold}); blocks themselves are never refused. Kept across
 * epochs (the dataset hands worker i the same store every epoch, so later epochs reuse the pages).
 * Not thread-safe: used by one worker thread at a time; {@link #close()} frees everything.
 */
final class HostFrameMemory extends HeldBlocks {
  private final Map<Long, Deque<Long>> idle = new HashMap<>(); // bytes -> addresses

  HostFrameMemory(long budgetBytes) {
    super(budgetBytes);
  }

  @Override
  long allocate(long bytes) {
    Deque<Long> q = idle.get(bytes);
    Long recycled = q == null ? null : q.poll();
    if (recycled != null) {
      return recycled;
    }
    Pointer p = Pointer.malloc(Math.max(1, bytes));
    if (p == null || p.isNull()) {
      throw new OutOfMemoryError("cannot allocate " + bytes + " bytes for decoded frames");
    }
    return p.address();
  }

  @Override
  void recycle(long address, long bytes) {
    idle.computeIfAbsent(bytes, b -> new ArrayDeque<>()).push(address);
  }

  @Override
  public void close() {
    releaseAll();
    idle.values()
        .forEach(q -> q.forEach(address -> Pointer.free(NativeAddress.bytesAt(address, 1))));
    idle.clear();
  }
}
