package org.robostream.dataset;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One entry of info.json's {@code features}. Immutable.
 *
 * @param names per-element names flattened to strings (LeRobot writes a list, a nested list or a
 *     dict of lists); empty when absent or null
 * @param videoInfo the {@code info} (or third-party {@code video_info}) map of video features;
 *     empty for other features
 */
public record Feature(
    String name, String dtype, int[] shape, List<String> names, Map<String, Object> videoInfo) {
  public Feature {
    shape = shape.clone();
    names = List.copyOf(names);
    videoInfo = Map.copyOf(videoInfo);
  }

  @Override
  public int[] shape() {
    return shape.clone();
  }

  /** Values per row: the product of the shape (1 for a scalar). */
  public long elementCount() {
    long n = 1;
    for (int d : shape) {
      n *= d;
    }
    return n;
  }

  public boolean isVideo() {
    return dtype.equals("video");
  }

  public boolean isImage() {
    return dtype.equals("image");
  }

  /**
   * Whether this is a language column ({@code dtype: language}: LeRobot's {@code
   * language_persistent} and {@code language_events}, lists of message structs per row), delivered
   * as one JSON text per row.
   */
  public boolean isLanguage() {
    return dtype.equals("language");
  }

  /**
   * Whether a video feature is a depth map: one channel of sample values, not RGB. Its info says so
   * as LeRobot writes it now ({@code is_depth_map}) or as it did ({@code video.is_depth_map}).
   */
  public boolean isDepthMap() {
    return depthMarked(videoInfo);
  }

  /** Whether a feature's {@code info} marks a depth map, in either of LeRobot's spellings. */
  static boolean depthMarked(Map<String, Object> info) {
    return Boolean.TRUE.equals(info.get("is_depth_map"))
        || Boolean.TRUE.equals(info.get("video.is_depth_map"));
  }

  /**
   * A camera's (video or image feature's) declared frame size, its axes read as {@link FrameShape}
   * says; checked when info.json is read.
   *
   * @throws IllegalStateException for a feature that is not a camera
   */
  public FrameShape frameShape() {
    if (!isVideo() && !isImage()) {
      throw new IllegalStateException(name + " is a " + dtype + " feature, not a camera");
    }
    return FrameShape.declared(name, shape, names, "info.json");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Feature f
        && name.equals(f.name)
        && dtype.equals(f.dtype)
        && Arrays.equals(shape, f.shape)
        && names.equals(f.names);
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + Arrays.hashCode(shape);
  }
}
