package org.robostream.video;

/**
 * Which YUV to RGB converter writes the frame slots. {@link #AUTO} is swscale (FFmpeg 8.1): its
 * frames equal the ffmpeg CLI's, and it is 2.2x faster than libyuv for CHW uint8, the loader's
 * default (docs/PERFORMANCE.md, one JMH run of both). {@link #LIBYUV} forces libyuv: 1.27x faster
 * for HWC uint8, frames up to 24 levels off the CLI's, 8-bit planar 4:2:0/4:2:2/4:4:4 only, uint8
 * only (float32 always comes from swscale).
 */
public enum ColorConverterKind {
  AUTO,
  LIBYUV,
  SWSCALE
}
