package org.robostream.testing;

/** Pixel comparisons between decoded frames and references. */
public final class FrameCompare {
  private FrameCompare() {}

  /** Mean absolute difference per byte between {@code a} and {@code b[offset..offset+len)}. */
  public static double meanAbsDiff(byte[] a, byte[] b, int offset) {
    long sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += Math.abs((a[i] & 0xff) - (b[offset + i] & 0xff));
    }
    return sum / (double) a.length;
  }

  public static int maxAbsDiff(byte[] a, byte[] b, int offset) {
    int max = 0;
    for (int i = 0; i < a.length; i++) {
      max = Math.max(max, Math.abs((a[i] & 0xff) - (b[offset + i] & 0xff)));
    }
    return max;
  }

  /**
   * Reads the frame number that the "pattern" fixtures write into their top half: ten 16-pixel
   * bars, bright for a one bit (HWC RGB frame of the given width).
   */
  public static int patternFrameNumber(byte[] hwc, int width) {
    int n = 0;
    for (int bit = 0; bit < 10; bit++) {
      int x = bit * 16 + 8;
      int y = 20;
      int green = hwc[(y * width + x) * 3 + 1] & 0xff;
      if (green > 128) {
        n |= 1 << bit;
      }
    }
    return n;
  }

  /** The HWC frame at {@code offset} of {@code hwc} as CHW. */
  public static byte[] hwcToChw(byte[] hwc, int offset, int height, int width) {
    int plane = height * width;
    byte[] out = new byte[3 * plane];
    for (int i = 0; i < plane; i++) {
      for (int c = 0; c < 3; c++) {
        out[c * plane + i] = hwc[offset + i * 3 + c];
      }
    }
    return out;
  }

  /** Converts a CHW frame to HWC. */
  public static byte[] chwToHwc(byte[] chw, int height, int width) {
    byte[] out = new byte[chw.length];
    int plane = height * width;
    for (int i = 0; i < plane; i++) {
      for (int c = 0; c < 3; c++) {
        out[i * 3 + c] = chw[c * plane + i];
      }
    }
    return out;
  }
}
