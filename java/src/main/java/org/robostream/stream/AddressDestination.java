package org.robostream.stream;

import org.robostream.video.FrameDestination;
import org.robostream.video.FrameLayout;

/** A decode destination whose request i goes to a given native address. Not thread-safe. */
final class AddressDestination implements FrameDestination {
  private final int width;
  private final int height;
  private final FrameLayout layout;
  private final long[] addresses;

  AddressDestination(int width, int height, FrameLayout layout, long[] addresses) {
    this.width = width;
    this.height = height;
    this.layout = layout;
    this.addresses = addresses;
  }

  @Override
  public int width() {
    return width;
  }

  @Override
  public int height() {
    return height;
  }

  @Override
  public FrameLayout layout() {
    return layout;
  }

  @Override
  public long slotAddress(int request) {
    return addresses[request];
  }
}
