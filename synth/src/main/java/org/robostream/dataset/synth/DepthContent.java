package org.robostream.dataset.synth;

/**
 * Depth frames for depth cameras: an RGB painter's image turned into one 12-bit value per pixel
 * (the mean of R, G and B scaled from 0..255 to 0..4095), written as 16-bit little-endian samples
 * ({@code gray12le} input). The pattern stays readable as depth, and every (episode, frame, camera)
 * gives a different image. Not thread-safe: one per video being written.
 */
final class DepthContent implements FfmpegVideoWriter.FramePainter {
  private final FfmpegVideoWriter.FramePainter colour;
  private final byte[] rgb;

  /** {@code colour} paints {@code pixels}-pixel RGB24 frames. */
  DepthContent(FfmpegVideoWriter.FramePainter colour, int pixels) {
    this.colour = colour;
    this.rgb = new byte[pixels * 3];
  }

  @Override
  public void paint(byte[] depth, int frame) {
    colour.paint(rgb, frame);
    for (int i = 0, o = 0; i < rgb.length; i += 3, o += 2) {
      int mean = ((rgb[i] & 0xFF) + (rgb[i + 1] & 0xFF) + (rgb[i + 2] & 0xFF)) / 3;
      int value = mean * 4095 / 255;
      depth[o] = (byte) value;
      depth[o + 1] = (byte) (value >>> 8);
    }
  }
}
