package org.robostream.framecache;

import org.bytedeco.javacpp.Pointer;
import org.robostream.nativecore.NativeAddress;

/**
 * A small native block that a picture is copied (or packed) into just before it is written to a
 * cache file, so that the write reads the same few pages every time instead of wherever the picture
 * lies.
 *
 * <p>Why a copy makes the write cheaper: {@code pwrite} copies from the caller's memory through the
 * caller's mapping. The shuffle buffer's blocks spread over hundreds of megabytes, so each frame's
 * write reads pages the kernel side has not touched lately; on a virtual machine with shadow paging
 * (the project's test machines) each such page costs the hypervisor a fault as well. A block reused
 * for every frame stays mapped and in cache. Measured on those machines (docs/PERFORMANCE.md,
 * "Decoded-frame cache", {@code scripts/perf/tmpfs-write-probe.c}): writing 3.1 GB of 96 KiB frames
 * into tmpfs from two threads cost 2.0 s of system time taken from a 600 MB pool, 0.9 s (and 0.1 s
 * of user time for the copies) through a block like this one; the loader's first epoch with a cache
 * went from 14% to 10% slower than without. On bare metal the copy is a few microseconds a frame,
 * from and to cache-hot memory.
 *
 * <p>Not thread-safe: one per worker. Ownership: {@link #close()} frees the block; an address from
 * {@link #copyOf} is valid until the next call or the close.
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
