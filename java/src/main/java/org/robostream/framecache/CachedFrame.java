package org.robostream.framecache;

import org.robostream.video.ColorSpec;
import org.robostream.video.HeldForm;
import org.robostream.video.HeldFrame;

/**
 * One decoded picture found in a {@link FrameCache}, or handed to it to store: its packed bytes
 * (FFmpeg's image layout with alignment 1, as {@code video.PackedPicture} packs them) at {@code
 * address}, checked against their checksum, and what the decoder reported for it. A frame read from
 * the cache lies in a block of the reader's own ({@link FrameTarget}), never in the cache's pages:
 * the address is valid as long as the reader keeps that block. Immutable.
 *
 * @param color null where the decoder gave none (a depth map's gray picture)
 * @param ptsSeconds the frame's pts in its file, as decoded
 * @param frameIndex the frame's position in its file, as decoded
 * @deprecated the cache and the loader hold frames as one type, {@link HeldFrame} (this one's
 *     fields, its pixel format as {@link HeldForm.Packed}); kept so that callers of the {@code
 *     FrameCache.Entry} methods that take or return it compile
 */
@Deprecated
public record CachedFrame(
    long address,
    long bytes,
    int width,
    int height,
    int pixelFormat,
    ColorSpec color,
    double ptsSeconds,
    long frameIndex) {
  /** The same frame as a {@link HeldFrame}. */
  public HeldFrame toHeld() {
    return new HeldFrame(
        address,
        bytes,
        width,
        height,
        new HeldForm.Packed(pixelFormat),
        color,
        ptsSeconds,
        frameIndex);
  }

  /** {@code f}, which must be packed, as a {@code CachedFrame}. */
  public static CachedFrame of(HeldFrame f) {
    return new CachedFrame(
        f.address(),
        f.bytes(),
        f.width(),
        f.height(),
        f.pixelFormat(),
        f.color(),
        f.ptsSeconds(),
        f.frameIndex());
  }
}
