package org.robostream.framecache;

import org.bytedeco.javacpp.Pointer;
import org.robostream.nativecore.NativeAddress;

/**
 * A small native block a picture is copied (or packed) into just before it is written to a cache
 * file, so every write reads the same few pages.
 *
 * <p>Why: {@code pwrite} reads the caller's memory, and the shuffle buffer spreads over hundreds of
 * MB, so writes touch cold pages, which on a VM with shadow paging also fault in the hypervisor.
 * Measured (docs/PERFORMANCE.md, "Decoded-frame cache"): 3.1 GB into tmpfs cost 2.0 s of system
 * time from the pool, 0.9 s through this block. On bare metal the copy costs microseconds a frame.
 *
 * <p>Not thread-safe: one per worker. {@link #close()} frees the block; an address from {@link
 * #copyOf} is valid until the next call or the close.
 */
public final class WriteStaging implements AutoCloseable {
  private Pointer block;
  private long capacity;

  /**
   * The block's address, grown to at least {@code bytes} (its contents are lost when it grows): a
   * picture packed here is stored with no staging of its own ({@code Entry.store(position, f)}).
   */
  public long block(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("a staged picture has at least one byte, not " + bytes);
    }
    if (block == null || capacity < bytes) {
      free();
      block = Pointer.malloc(bytes);
      if (block == null || block.isNull()) {
        block = null;
        throw new OutOfMemoryError("cannot allocate " + bytes + " bytes to stage a frame");
      }
      capacity = bytes;
    }
    return block.address();
  }

  /** Copies {@code bytes} at {@code address} into the block and returns the block's address. */
  long copyOf(long address, long bytes) {
    if (block != null && address == block.address()) { // packed here already
      if (bytes > capacity) {
        throw new IllegalArgumentException(bytes + " bytes asked of a " + capacity + "-byte block");
      }
      return address;
    }
    long to = block(bytes);
    NativeAddress.copy(to, address, bytes);
    return to;
  }

  @Override
  public void close() {
    free();
  }

  private void free() {
    if (block != null) {
      Pointer.free(block);
      block = null;
      capacity = 0;
    }
  }
}
