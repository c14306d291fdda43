package org.robostream.video;

/**
 * Which YUV to RGB converter to use for FFmpeg-decoded frames. {@link #AUTO} takes libyuv for
 * 8-bit planar 4:2:0/4:2:2/4:4:4 (measured faster, see docs/PERFORMANCE.md) and swscale for
 * everything else.
 */
public enum ColorConverterKind {
  AUTO,
  LIBYUV,
  SWSCALE
}
