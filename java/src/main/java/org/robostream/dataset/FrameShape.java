package org.robostream.dataset;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A camera feature's declared frame size, read from info.json as LeRobot reads it: names placing
 * {@code height} and {@code width} decide the axes of {@code shape}; else a last name {@code
 * channel(s)} means height-width-channels, a first one channels-first (LeRobot's {@code
 * dataset_to_policy_features}); else the numbers (first axis 1 or 3, last neither: channels-first).
 *
 * <p>A wrong guess is harmless: the build compares the size with the first video's real one and
 * refuses a mismatch before streaming. The delivered layout is the stream's choice. Immutable.
 *
 * @param channelsFirst whether info.json declares {@code [channels, height, width]}
 */
public record FrameShape(int height, int width, int channels, boolean channelsFirst) {
  private static final List<String> CHANNEL_NAMES = List.of("channel", "channels");

  /**
   * Reads feature {@code feature}'s {@code shape} with its {@code names} (empty when absent).
   *
   * @param source info.json, for messages
   * @throws DatasetException.BadMetadata when the shape does not have three axes
   */
  public static FrameShape declared(
      String feature, int[] shape, List<String> names, String source) {
    if (shape.length != 3) {
      throw new DatasetException.BadMetadata(
          source,
          "features."
              + feature
              + ".shape "
              + Arrays.toString(shape)
              + " must have three axes (height, width and channels, in the order its names give)");
    }
    Boolean named = namedChannelsFirst(names);
    boolean numbers = isChannelCount(shape[0]) && !isChannelCount(shape[2]);
    // Names that would make a channel count of neither 1 nor 3 contradict the numbers (a
    // converter that wrote LeRobot's names over its own order): the numbers decide then.
    boolean first = named == null || !isChannelCount(named ? shape[0] : shape[2]) ? numbers : named;
    return first
        ? new FrameShape(shape[1], shape[2], shape[0], true)
        : new FrameShape(shape[0], shape[1], shape[2], false);
  }

  /** Whether the names say channels-first; null when they do not say. */
  private static Boolean namedChannelsFirst(List<String> names) {
    if (names.size() == 3) {
      List<String> lower = names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
      if (lower.subList(0, 2).equals(List.of("height", "width"))) {
        return false;
      }
      if (lower.subList(1, 3).equals(List.of("height", "width"))) {
        return true;
      }
      if (CHANNEL_NAMES.contains(lower.get(2))) {
        return false;
      }
      if (CHANNEL_NAMES.contains(lower.get(0))) {
        return true;
      }
    }
    return null;
  }

  private static boolean isChannelCount(int n) {
    return n == 1 || n == 3;
  }

  /** {@code WIDTHxHEIGHT}, as video tools print sizes. */
  public String size() {
    return width + "x" + height;
  }

  /** The axis order info.json declares: {@code [C, H, W]} or {@code [H, W, C]}. */
  public String axes() {
    return channelsFirst ? "[C, H, W]" : "[H, W, C]";
  }

  /**
   * Refuses a file whose frames are not this size.
   *
   * @param camera the feature, for the message
   * @param file the video (or image) whose real size is {@code realWidth} x {@code realHeight}
   * @throws DatasetException.BadMetadata naming the file, the camera and both sizes
   */
  public void requireSize(String camera, String file, int realWidth, int realHeight) {
    if (realWidth != width || realHeight != height) {
      throw new DatasetException.BadMetadata(
          file,
          "frames are "
              + realWidth
              + "x"
              + realHeight
              + " but info.json declares "
              + camera
              + " as "
              + size()
              + " ("
              + height
              + " high, "
              + width
              + " wide, read as "
              + axes()
              + ")");
    }
  }
}
