package org.robostream.framecache;

/**
 * Where a frame read from a {@link FrameCache} is copied to: memory of the reader's. The cache
 * never hands out its own pages (a file another process truncates would fault a reader of a
 * mapping: a signal that kills the JVM); it reads a slot's bytes into a block taken here, checks
 * them there, and gives the block back when they do not match their checksum. Implementations are
 * used by one thread at a time.
 */
public interface FrameTarget {
  /** A block of at least {@code bytes} bytes; its address. */
  long take(long bytes);

  /**
   * Takes back the block of {@code bytes} at {@code address}: what was read into it is not served.
   */
  void giveBack(long address, long bytes);
}
