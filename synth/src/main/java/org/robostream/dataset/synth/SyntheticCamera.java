package org.robostream.dataset.synth;

/**
 * One camera of a generated dataset as it is encoded and declared. Immutable.
 *
 * @param key the feature key, {@code observation.images.<name>}
 * @param index its position among the cameras (the pattern's camera number)
 * @param size its frame size
 * @param depth a depth camera: one 12-bit channel, HEVC {@code gray12le}
 * @param codec its encoder (depth cameras: always HEVC, the one MP4 encoder here with 12-bit grey)
 * @param pixelFormat FFmpeg's name of the stored pixel format ({@code video.pix_fmt})
 */
public record SyntheticCamera(
    String key,
    int index,
    FrameSize size,
    boolean depth,
    VideoCodecChoice codec,
    String pixelFormat) {

  /** What depth cameras store: LeRobot's depth writers' 12-bit HEVC. */
  static final String DEPTH_PIXEL_FORMAT = "gray12le";

  /** The short name after {@code observation.images.}. */
  public String name() {
    return key.substring(key.lastIndexOf('.') + 1);
  }

  /** Channels of a decoded frame: 3 (RGB) or 1 (depth). */
  public int channels() {
    return depth ? 1 : 3;
  }

  /** The raw input ffmpeg reads on stdin: RGB24 bytes, or 16-bit little-endian depth values. */
  String inputPixelFormat() {
    return depth ? "gray12le" : "rgb24";
  }

  /** Bytes of one raw input frame. */
  int inputFrameBytes() {
    return size.width() * size.height() * (depth ? 2 : 3);
  }
}
