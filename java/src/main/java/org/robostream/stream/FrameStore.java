package org.robostream.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.bytedeco.javacpp.Pointer;

/**
 * Decoded frames of samples waiting in a worker's shuffle buffer: fixed-size slots (all cameras
 * and window positions of one sample, uint8 in the output layout), allocated on first use up to
 * a capacity derived from the memory budget. Slots are malloc'ed, not zeroed (the decoder
 * overwrites every byte), which matters at hundreds of megabytes. Not thread-safe: one per
 * worker; {@link #close()} frees the memory.
 */
final class FrameStore implements AutoCloseable {
  private final long slotBytes;
  private final int capacity;
  private final List<Pointer> buffers = new ArrayList<>();
  private final List<Long> addresses = new ArrayList<>();
  private final Deque<Integer> free = new ArrayDeque<>();

  FrameStore(long slotBytes, int capacity) {
    if (slotBytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("one sample's frames exceed 2 GiB");
    }
    this.slotBytes = slotBytes;
    this.capacity = capacity;
  }

  /** A free slot, or -1 when all {@code capacity} slots are taken. */
  int take() {
    if (!free.isEmpty()) {
      return free.pop();
    }
    if (buffers.size() >= capacity) {
      return -1;
    }
    Pointer p = Pointer.malloc(Math.max(1, slotBytes));
    if (p == null || p.isNull()) {
      throw new OutOfMemoryError("cannot allocate " + slotBytes + " bytes for decoded frames");
    }
    buffers.add(p);
    addresses.add(p.address());
    return buffers.size() - 1;
  }

  void release(int slot) {
    free.push(slot);
  }

  long address(int slot) {
    return addresses.get(slot);
  }

  /** Bytes allocated so far. */
  long allocatedBytes() {
    return buffers.size() * slotBytes;
  }

  @Override
  public void close() {
    buffers.forEach(Pointer::free);
    buffers.clear();
    addresses.clear();
    free.clear();
  }
}
