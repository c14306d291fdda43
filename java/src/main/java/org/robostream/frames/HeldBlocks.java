package org.robostream.frames;

import java.util.HashMap;
import java.util.Map;

/**
 * What every {@link FrameMemory} keeps track of, whatever its blocks are: the byte budget, the
 * bytes held (blocks and accounted bytes), and which blocks are out with their sizes, so that a
 * block goes back once and with the size it was taken with (a second release would hand one block
 * to two frames). Subclasses say where blocks come from ({@link #allocate}) and where released ones
 * go ({@link #recycle}). Not thread-safe: one worker thread at a time.
 */
abstract class HeldBlocks implements FrameMemory {
  private final long budgetBytes;
  private final Map<Long, Long> held = new HashMap<>(); // address -> bytes
  private long heldBytes; // in blocks
  private long accountedBytes; // held outside blocks, told by account()

  HeldBlocks(long budgetBytes) {
    this.budgetBytes = budgetBytes;
  }

  /** A block of {@code bytes}, from the subclass's idle blocks or newly allocated. */
  abstract long allocate(long bytes);

  /** Takes back a block this memory handed out and the worker released. */
  abstract void recycle(long address, long bytes);

  @Override
  public boolean canHold(long bytes) {
    return heldBytes + accountedBytes + bytes <= budgetBytes;
  }

  @Override
  public long take(long bytes) {
    long address = allocate(bytes);
    held.put(address, bytes);
    heldBytes += bytes;
    return address;
  }

  @Override
  public void release(long address, long bytes) {
    Long size = held.get(address);
    if (size == null || size != bytes) {
      throw new IllegalStateException("block " + address + " of " + bytes + " bytes is not held");
    }
    held.remove(address);
    heldBytes -= bytes;
    recycle(address, bytes);
  }

  @Override
  public void releaseAll() {
    held.forEach(this::recycle);
    held.clear();
    heldBytes = 0;
  }

  @Override
  public long heldBytes() {
    return heldBytes + accountedBytes;
  }

  @Override
  public long budgetBytes() {
    return budgetBytes;
  }

  @Override
  public void account(long bytes) {
    accountedBytes += bytes;
  }
}
