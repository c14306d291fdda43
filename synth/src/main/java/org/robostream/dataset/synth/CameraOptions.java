package org.robostream.dataset.synth;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a generated dataset's cameras differ in beyond the dataset-wide size and codec of {@link
 * SyntheticDatasetSpec}: their own sizes, the axis order info.json declares, the colour cameras'
 * pixel format and depth cameras. Immutable.
 *
 * @param sizes a camera's own frame size, by its short name ({@code top}, {@code depth}) or its
 *     feature key; cameras not named have the spec's size
 * @param channelsFirst declare cameras {@code [channels, height, width]} (as 9% of published
 *     datasets do) instead of LeRobot's {@code [height, width, channels]}; the videos are the same
 * @param pixelFormat what the encoder writes for the colour cameras
 * @param depthCameras depth cameras after the colour ones: single-channel 12-bit HEVC ({@code
 *     gray12le}, {@code video.is_depth_map} true), as LeRobot's depth writers make them
 */
public record CameraOptions(
    Map<String, FrameSize> sizes,
    boolean channelsFirst,
    PixelFormatChoice pixelFormat,
    int depthCameras) {

  /** LeRobot's recorder: one size, channels last, yuv420p, no depth camera. */
  public static final CameraOptions DEFAULTS =
      new CameraOptions(Map.of(), false, PixelFormatChoice.YUV420P, 0);

  public CameraOptions {
    // Sorted, so the record's text (the fixtures' completion marker) does not depend on map order.
    sizes = Collections.unmodifiableMap(new TreeMap<>(sizes));
    if (depthCameras < 0 || depthCameras > 16) {
      throw new IllegalArgumentException("depth cameras must be 0..16");
    }
  }

  public CameraOptions withSizes(Map<String, FrameSize> s) {
    return new CameraOptions(s, channelsFirst, pixelFormat, depthCameras);
  }

  public CameraOptions withChannelsFirst(boolean c) {
    return new CameraOptions(sizes, c, pixelFormat, depthCameras);
  }

  public CameraOptions withPixelFormat(PixelFormatChoice p) {
    return new CameraOptions(sizes, channelsFirst, p, depthCameras);
  }

  public CameraOptions withDepthCameras(int n) {
    return new CameraOptions(sizes, channelsFirst, pixelFormat, n);
  }
}
