package org.robostream.stream;

/**
 * Memory for decoded frames that wait in a worker's shuffle buffer until their batch is built:
 * blocks taken and released by size, with a byte budget checked before a run of samples is decoded
 * ({@link #canHold}; blocks themselves are never refused), which also counts what the worker holds
 * outside blocks ({@link #account}). Implementations: host memory holding pictures packed as
 * decoded ({@link FrameStore}) and pooled device memory holding RGB frames ({@link
 * PoolFrameMemory}).
 *
 * <p>Not thread-safe: used by one worker thread at a time. {@link #close()} frees everything.
 */
interface FrameMemory extends AutoCloseable {
  /** Whether {@code bytes} more fit the budget. */
  boolean canHold(long bytes);

  /** A block of {@code bytes}; its address (a device pointer for device memory). */
  long take(long bytes);

  void release(long address, long bytes);

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
