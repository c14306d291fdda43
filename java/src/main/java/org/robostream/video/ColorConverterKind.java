package org.robostream.video;

/**
 * Which YUV to RGB converter writes the frame slots. {@link #AUTO} is swscale (FFmpeg 8.1),
 * measured 1.9x (HWC) to 3.2x (CHW) faster than Debian's libyuv on our machines
 * (docs/PERFORMANCE.md); {@link #LIBYUV} forces libyuv, which handles 8-bit planar
 * 4:2:0/4:2:2/4:4:4 only.
 */
public enum ColorConverterKind {
  AUTO,
  LIBYUV,
  SWSCALE
}
