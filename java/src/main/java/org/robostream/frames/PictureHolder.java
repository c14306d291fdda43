package org.robostream.frames;

import org.robostream.codec.HeldFrame;
import org.robostream.codec.PictureReceiver;
import org.robostream.framecache.FrameTarget;

/**
 * One decode call's receiver on a {@link FrameDevice}: holds each picture it is handed in a block
 * of the worker's frame memory, in the device's form, and passes the held frame on. Holders that
 * keep pictures packed (the CPU device) also take the frame cache's part with one copy each way: a
 * frame the cache serves is read straight into a held block ({@link #packedMemory}, counted in the
 * budget like a decoded frame), and a decoded frame is stored into the cache from the block it was
 * just packed into ({@link #lastPacked}). Not thread-safe: one worker's.
 */
public interface PictureHolder extends PictureReceiver {
  /**
   * Blocks of the held memory for the cache to read a packed frame into before {@link #holdPacked};
   * null when this holder does not keep pictures packed (the cache then hands its frames over as
   * pictures, through {@link #accept}).
   */
  FrameTarget packedMemory();

  /**
   * Holds the cache's packed frame {@code f}, whose bytes lie in a block taken from {@link
   * #packedMemory}, as request {@code request}'s frame, as it is; the block is released with it.
   */
  void holdPacked(int request, HeldFrame f);

  /** The frame the last {@link #accept} packed; null when it was not kept packed. */
  HeldFrame lastPacked();

  /** Gives back the blocks taken for requests that were not passed on (a decode that failed). */
  void releaseUndelivered();
}
