package org.robostream.dataset.synth;

/**
 * The frame-identity pattern of generated datasets: (episode, frame, camera) and a check byte
 * written as 48 black or white cells in a grid over a grey background, large enough to survive
 * lossy encoding, so a test can tell exactly which frame it decoded. Stateless, thread-safe.
 *
 * <p>Bits, least significant first, row-major from the top-left cell: episode (16), frame (16),
 * camera (8), check = episode ^ frame ^ camera bytes folded (8). Cells are {@link #CELL} pixels;
 * the image needs at least 48 of them (64x48 pixels and up).
 */
public final class PatternCode {
  public static final int CELL = 8;
  private static final int BITS = 48;

  private PatternCode() {}

  /** The identity a frame carries. */
  public record Identity(int episode, int frame, int camera) {}

  /** Whether a {@code width} x {@code height} image holds the code. */
  public static boolean fits(int width, int height) {
    return (width / CELL) * (height / CELL) >= BITS;
  }

  /** Paints the code for (episode, frame, camera) into an RGB24 HWC image. */
  public static void paint(byte[] rgb, int width, int height, int episode, int frame, int camera) {
    if (!fits(width, height)) {
      throw new IllegalArgumentException(
          width
              + "x"
              + height
              + " is too small for the pattern"
              + " (needs 48 cells of "
              + CELL
              + " px, e.g. 64x48)");
    }
    if (episode < 0
        || episode > 0xFFFF
        || frame < 0
        || frame > 0xFFFF
        || camera < 0
        || camera > 0xFF) {
      throw new IllegalArgumentException("pattern holds episode and frame < 65536, camera < 256");
    }
    byte grey = (byte) (96 + 24 * (camera % 4));
    java.util.Arrays.fill(rgb, 0, width * height * 3, grey);
    long code = code(episode, frame, camera);
    int cols = width / CELL;
    for (int bit = 0; bit < BITS; bit++) {
      byte v = ((code >>> bit) & 1) != 0 ? (byte) 255 : 0;
      int x0 = (bit % cols) * CELL;
      int y0 = (bit / cols) * CELL;
      for (int y = y0; y < y0 + CELL; y++) {
        int row = (y * width + x0) * 3;
        java.util.Arrays.fill(rgb, row, row + CELL * 3, v);
      }
    }
  }

  /**
   * Reads the code from a decoded RGB image in HWC ({@code chw} false) or CHW layout, sampling the
   * centre of each cell; null when the check byte does not match (not a pattern frame, or damaged
   * beyond recognition).
   */
  public static Identity read(java.nio.ByteBuffer image, int width, int height, boolean chw) {
    int cols = width / CELL;
    long code = 0;
    for (int bit = 0; bit < BITS; bit++) {
      int cx = (bit % cols) * CELL + CELL / 2;
      int cy = (bit / cols) * CELL + CELL / 2;
      int sum = 0;
      int n = 0;
      for (int y = cy - 1; y <= cy; y++) {
        for (int x = cx - 1; x <= cx; x++) {
          for (int c = 0; c < 3; c++) {
            int at = chw ? (c * height + y) * width + x : (y * width + x) * 3 + c;
            sum += image.get(image.position() + at) & 0xFF;
            n++;
          }
        }
      }
      if (sum / n >= 128) {
        code |= 1L << bit;
      }
    }
    int episode = (int) (code & 0xFFFF);
    int frame = (int) ((code >>> 16) & 0xFFFF);
    int camera = (int) ((code >>> 32) & 0xFF);
    if (code != code(episode, frame, camera)) {
      return null;
    }
    return new Identity(episode, frame, camera);
  }

  private static long code(int episode, int frame, int camera) {
    int check = (episode ^ (episode >>> 8) ^ frame ^ (frame >>> 8) ^ camera ^ 0x5A) & 0xFF;
    return (episode & 0xFFFFL)
        | ((frame & 0xFFFFL) << 16)
        | ((long) (camera & 0xFF) << 32)
        | ((long) check << 40);
  }
}
