package org.robostream.nativecore;

import org.bytedeco.javacpp.BytePointer;

/**
 * Wraps a raw native address in a JavaCPP pointer without taking ownership (nothing is freed when
 * the wrapper is closed or collected). Thread-safe (stateless).
 */
public final class NativeAddress {
  private NativeAddress() {}

  public static BytePointer bytesAt(long address, long capacity) {
    return new View(address, capacity);
  }

  /** Copies {@code bytes} from {@code src} to {@code dst} (non-overlapping native memory). */
  public static void copy(long dst, long src, long bytes) {
    BytePointer.memcpy(new View(dst, bytes), new View(src, bytes), bytes);
  }

  private static final class View extends BytePointer {
    View(long address, long capacity) {
      this.address = address;
      this.capacity = capacity;
      this.limit = capacity;
    }
  }
}
