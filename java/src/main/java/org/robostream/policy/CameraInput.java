package org.robostream.policy;

import org.robostream.arrow.DType;
import org.robostream.arrow.FrameColumn;
import org.robostream.video.FrameLayout;

/**
 * One camera the policy sees: its batch column's name, channels, size and element type (one frame
 * per sample, channels first), and how much its encoder averages the frame down first ({@code
 * pool}: side / 64, rounded down, at least 1), so a 256x256 camera costs the encoder what a 64x64
 * one does. Immutable.
 */
public record CameraInput(
    String name, int channels, int height, int width, String dtype, int pool) {
  /** The side the encoder's input is pooled down to (about). */
  public static final int ENCODER_SIDE = 64;

  public CameraInput {
    if (channels != 1 && channels != 3) {
      throw new IllegalArgumentException(
          name + ": the policy takes 1 or 3 channels, not " + channels);
    }
    if (!dtype.equals("uint8") && !dtype.equals("float32") && !dtype.equals("uint16")) {
      throw new IllegalArgumentException(
          name + ": frames of " + dtype + " (uint8, float32, uint16)");
    }
    if (pool < 1 || height / pool < 8 || width / pool < 8) {
      throw new IllegalArgumentException(
          name + ": " + width + "x" + height + " pooled by " + pool + " is under 8x8 pixels");
    }
  }

  /**
   * The input a batch's frame column gives: one frame per sample, channels first.
   *
   * @throws IllegalArgumentException for a time window of frames or an HWC layout, naming the
   *     builder option that changes it
   */
  public static CameraInput of(FrameColumn column) {
    if (column.positions() != 1) {
      throw new IllegalArgumentException(
          column.name()
              + " has a window of "
              + column.positions()
              + " frames per sample: the policy takes one frame per camera (no deltaTimestamps on"
              + " cameras)");
    }
    if (column.layout() != FrameLayout.CHW) {
      throw new IllegalArgumentException(
          column.name()
              + " is HWC: the policy takes channels-first frames (layout(FrameLayout.CHW))");
    }
    int side = Math.min(column.height(), column.width());
    int pool = Math.max(1, side / ENCODER_SIDE);
    return new CameraInput(
        column.name(),
        column.channels(),
        column.height(),
        column.width(),
        dtypeName(column.dtype()),
        pool);
  }

  private static String dtypeName(DType dtype) {
    return switch (dtype) {
      case UINT8 -> "uint8";
      case FLOAT32 -> "float32";
      case UINT16 -> "uint16";
      default -> throw new IllegalArgumentException("frames of " + dtype);
    };
  }

  /** What one sample's frame of this camera is scaled by to land in [0, 1]. */
  public float unitScale() {
    return switch (dtype) {
      case "uint8" -> 1f / 255f;
      case "uint16" -> 1f / 65535f;
      default -> 1f; // float32 RGB is in [0, 1] already; float32 depth is left as decoded
    };
  }
}
