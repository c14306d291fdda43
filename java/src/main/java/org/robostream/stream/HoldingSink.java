package org.robostream.stream;

import org.robostream.framecache.CachedFrame;
import org.robostream.framecache.FrameTarget;
import org.robostream.video.PictureSink;

/**
 * A {@link PictureSink} that holds pictures packed in memory blocks (the host path's shuffle
 * buffer), and so can take the frame cache's part with one copy each way: a frame the cache serves
 * is read straight into a block of the shuffle buffer ({@link #heldMemory}, counted in its budget
 * like a decoded frame), and a decoded frame is stored into the cache from the block it was just
 * packed into. Not thread-safe: one worker's.
 */
interface HoldingSink extends PictureSink {
  /** Blocks of the held memory, for the cache to read a frame into before {@link #hold}. */
  FrameTarget heldMemory();

  /**
   * Holds cached frame {@code f}, whose bytes lie in a block taken from {@link #heldMemory}, as
   * request {@code request}'s picture; the block is released with the frame.
   */
  void hold(int request, CachedFrame f);

  /** Where the picture of the last {@link #accept} was packed ({@code packedBytes} long). */
  long lastPackedAddress();
}
