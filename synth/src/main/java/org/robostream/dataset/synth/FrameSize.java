package org.robostream.dataset.synth;

import java.util.Locale;

/** A frame size in pixels, written {@code WxH} as ffmpeg's {@code -s} takes it. Immutable. */
public record FrameSize(int width, int height) {

  /** {@code WxH}, e.g. {@code 640x480}. */
  public static FrameSize parse(String text) {
    String[] wh = text.strip().toLowerCase(Locale.ROOT).split("x");
    try {
      if (wh.length == 2) {
        return new FrameSize(Integer.parseInt(wh[0]), Integer.parseInt(wh[1]));
      }
    } catch (NumberFormatException e) {
      // reported below with the text
    }
    throw new IllegalArgumentException("a size is WxH (e.g. 640x480), got " + text);
  }

  @Override
  public String toString() {
    return width + "x" + height;
  }
}
