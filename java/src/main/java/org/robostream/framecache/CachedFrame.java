package org.robostream.framecache;

import org.robostream.video.ColorSpec;

/**
 * One decoded picture found in a {@link FrameCache}, or handed to it to store: its packed bytes
 * (FFmpeg's image layout with alignment 1, as {@code video.PackedPicture} packs them) at {@code
 * address}, checked against their checksum, and what the decoder reported for it. The address is
 * valid while the {@link FrameCache.Entry} it came from is held (between {@link FrameCache#acquire}
 * and {@link FrameCache.Entry#release()}). Immutable.
 *
 * @param color null where the decoder gave none (a depth map's gray picture)
 * @param ptsSeconds the frame's pts in its file, as decoded
 * @param frameIndex the frame's position in its file, as decoded
 */
public record CachedFrame(
    long address,
    long bytes,
    int width,
    int height,
    int pixelFormat,
    ColorSpec color,
    double ptsSeconds,
    long frameIndex) {}
