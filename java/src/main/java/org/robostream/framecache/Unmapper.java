package org.robostream.framecache;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.MappedByteBuffer;

/**
 * Unmaps a mapped buffer now instead of when the garbage collector finds it: the cache's files in
 * {@code /dev/shm} are RAM, and a file evicted to stay within the budget must give its pages back
 * when its last reader is done, not at some later collection. Uses {@code sun.misc.Unsafe
 * .invokeCleaner} (module jdk.unsupported, meant for this); where that is unavailable the buffer is
 * left to the collector. Thread-safe (stateless).
 */
final class Unmapper {
  private static final Object UNSAFE;
  private static final Method INVOKE_CLEANER;

  static {
    Object unsafe = null;
    Method clean = null;
    try {
      Class<?> c = Class.forName("sun.misc.Unsafe");
      Field f = c.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      unsafe = f.get(null);
      clean = c.getMethod("invokeCleaner", java.nio.ByteBuffer.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      unsafe = null;
      clean = null;
    }
    UNSAFE = unsafe;
    INVOKE_CLEANER = clean;
  }

  private Unmapper() {}

  static void unmap(MappedByteBuffer b) {
    if (INVOKE_CLEANER == null || b == null) {
      return;
    }
    try {
      INVOKE_CLEANER.invoke(UNSAFE, b);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // left to the garbage collector
    }
  }
}
