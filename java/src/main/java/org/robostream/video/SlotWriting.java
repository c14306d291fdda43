package org.robostream.video;

/**
 * Delivers pictures into a {@link FrameDestination}'s slots, the way {@link
 * VideoDecoder#decodeFrames(int[], FrameDestination)} promises: each frame converted once into the
 * slot of its first request, copied into the slots of the requests that repeat it ({@link
 * FrameDestination#copySlot}), every request reported {@link FrameDestination#delivered}. Not
 * thread-safe: one decode call's.
 */
final class SlotWriting implements PictureReceiver {
  private final FrameDestination destination;
  private long lastFrame = -1;
  private int lastRequest = -1;

  SlotWriting(FrameDestination destination) {
    this.destination = destination;
  }

  @Override
  public void accept(int request, DecodedPicture picture, double ptsSeconds, long frameIndex) {
    if (lastRequest >= 0 && frameIndex >= 0 && frameIndex == lastFrame) {
      destination.copySlot(request, lastRequest); // in device memory for NVDEC destinations
    } else {
      picture.convertInto(
          destination.slotAddress(request),
          destination.width(),
          destination.height(),
          destination.layout(),
          destination.samples());
      lastFrame = frameIndex;
      lastRequest = request;
    }
    destination.delivered(request, ptsSeconds, frameIndex);
  }
}
