package org.robostream.video;

/**
 * A {@link FrameBackend}'s current frame seen as a {@link DecodedPicture}: {@link DecodeCursor}
 * hands this one object to its receiver for every frame it delivers, so it is valid only until the
 * backend's next {@code receive()}. Its host planes are asked of the backend once per frame. Not
 * thread-safe: the cursor's.
 */
final class BackendPicture implements DecodedPicture {
  private final FrameBackend backend;
  private final boolean deep;
  private RawPicture raw; // the current frame's planes, once asked for

  /**
   * {@code deep}: whether the stream's samples have more than 8 bits, from the pixel format its
   * container names (what NVDEC's pictures are taken to be).
   */
  BackendPicture(FrameBackend backend, boolean deep) {
    this.backend = backend;
    this.deep = deep;
  }

  /** The backend moved on to another frame. */
  void next() {
    raw = null;
  }

  @Override
  public int width() {
    return backend.currentWidth();
  }

  @Override
  public int height() {
    return backend.currentHeight();
  }

  @Override
  public boolean onGpu() {
    return backend instanceof NvdecBackend;
  }

  /**
   * A CPU picture says by its own pixel format (so a 10-bit file whose container does not name its
   * format still counts as deep); NVDEC's has no host planes, and its stream's format decides.
   */
  @Override
  public boolean deep() {
    return onGpu() ? deep : PixelFormats.isDeep(raw().pixelFormat());
  }

  @Override
  public RawPicture raw() {
    if (raw == null) {
      raw = backend.currentPicture();
    }
    return raw;
  }

  @Override
  public void convertInto(
      long dst, int width, int height, FrameLayout layout, FrameSamples samples) {
    backend.convertCurrent(dst, width, height, layout, samples);
  }
}
