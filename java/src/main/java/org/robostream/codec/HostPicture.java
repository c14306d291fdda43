package org.robostream.codec;

/**
 * A {@link DecodedPicture} over planes in host memory that are not a decoder's current frame: a
 * picture kept packed (a frame cache's slot) or a decoded image. It converts with the {@link
 * SwscaleConverter} it is given, as a CPU decoder converts its frames. Valid as long as the planes
 * are; not thread-safe (the converter is the caller's).
 */
public final class HostPicture implements DecodedPicture {
  private final RawPicture raw;
  private final SwscaleConverter converter;

  public HostPicture(RawPicture raw, SwscaleConverter converter) {
    this.raw = raw;
    this.converter = converter;
  }

  @Override
  public int width() {
    return raw.width();
  }

  @Override
  public int height() {
    return raw.height();
  }

  @Override
  public boolean onGpu() {
    return false;
  }

  @Override
  public boolean deep() {
    return PixelFormats.isDeep(raw.pixelFormat());
  }

  @Override
  public RawPicture raw() {
    return raw;
  }

  /** A depth map's values, or RGB (scaled in the same swscale pass). */
  @Override
  public void convertInto(Slot slot) {
    if (slot.samples().isDepth()) {
      DepthSamples.copy(raw, slot.address(), slot.samples());
    } else {
      converter.convert(raw, slot);
    }
  }
}
