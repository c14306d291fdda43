package org.robostream.video;

/** Memory layout of one RGB uint8 frame: packed rows (HWC) or three colour planes (CHW). */
public enum FrameLayout {
  HWC(0),
  CHW(1);

  private final int nativeCode;

  FrameLayout(int nativeCode) {
    this.nativeCode = nativeCode;
  }

  /** The RS_LAYOUT_* value of the native core. */
  public int nativeCode() {
    return nativeCode;
  }

  /** Per-frame shape for a frame of {@code height} x {@code width}. */
  public int[] shape(int height, int width) {
    return this == HWC ? new int[] {height, width, 3} : new int[] {3, height, width};
  }

  /** Dimension names matching {@link #shape(int, int)}. */
  public String[] dimNames() {
    return this == HWC ? new String[] {"H", "W", "C"} : new String[] {"C", "H", "W"};
  }

  public static FrameLayout parse(String text) {
    return switch (text.toLowerCase(java.util.Locale.ROOT)) {
      case "hwc" -> HWC;
      case "chw" -> CHW;
      default -> throw new IllegalArgumentException("layout must be hwc or chw, got " + text);
    };
  }
}
