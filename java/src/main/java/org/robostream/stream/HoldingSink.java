package org.robostream.stream;

import org.robostream.framecache.CachedFrame;
import org.robostream.framecache.FrameCache;
import org.robostream.video.PictureSink;

/**
 * A {@link PictureSink} that holds pictures packed in memory blocks (the host path's shuffle
 * buffer), and so can take the frame cache's part without copies: a frame the cache serves is held
 * where it is (the cache's mapped slot), and a decoded frame is stored into the cache from the
 * block it was just packed into. Not thread-safe: one worker's.
 */
interface HoldingSink extends PictureSink {
  /**
   * Holds cached frame {@code f} of {@code entry} as request {@code request}'s picture, keeping the
   * entry until the frame is released.
   *
   * @return false when it cannot (then the caller passes the frame to {@link #accept} to copy)
   */
  boolean hold(int request, CachedFrame f, FrameCache.Entry entry);

  /** Where the picture of the last {@link #accept} was packed ({@code packedBytes} long). */
  long lastPackedAddress();
}
