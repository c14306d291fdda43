package org.robostream.video;

/**
 * Marks a decode whose pictures go to a {@link PictureSink} unconverted instead of into slots; it
 * carries the stream's size so that pictures are checked against it as slots are. Immutable.
 */
record SinkDestination(int width, int height, PictureSink sink) implements FrameDestination {
  @Override
  public FrameLayout layout() {
    return FrameLayout.HWC;
  }

  @Override
  public long slotAddress(int request) {
    throw new UnsupportedOperationException("pictures go to a sink");
  }
}
