package org.robostream.frames;

import org.robostream.framecache.FrameTarget;

/**
 * Memory for decoded frames that wait in a worker's shuffle buffer until their batch is built:
 * blocks taken and released by size, with a byte budget checked before a run of samples is decoded
 * ({@link #canHold}; blocks themselves are never refused), which also counts what the worker holds
 * outside blocks ({@link #account}). A {@link FrameTarget}, so that the frame cache reads a served
 * frame straight into a block of it. Made by a {@link FrameDevice}: host memory holding pictures
 * packed as decoded ({@link HostFrameMemory}, the CPU device's) and pooled device memory holding
 * RGB frames ({@link PoolFrameMemory}, the CUDA device's).
 *
 * <p>Not thread-safe: used by one worker thread at a time. {@link #close()} frees everything.
 */
public interface FrameMemory extends FrameTarget, AutoCloseable {
  /** Whether {@code bytes} more fit the budget. */
  boolean canHold(long bytes);

  /** A block of {@code bytes}; its address (a device pointer for device memory). */
  long take(long bytes);

  void release(long address, long bytes);

  /** A block the frame cache read into but does not serve: released. */
  @Override
  default void giveBack(long address, long bytes) {
    release(address, bytes);
  }

  /** Returns every held block (end of an epoch, or a stopped run). */
  void releaseAll();

  long heldBytes();

  /** The byte budget {@link #canHold} checks against. */
  long budgetBytes();

  /**
   * Counts {@code bytes} the worker holds outside blocks (the encoded images of image features it
   * keeps) against the budget, so fewer frames are decoded ahead while they are held; negative
   * gives them back.
   */
  void account(long bytes);

  @Override
  void close();
}
