package org.robostream.dataset;

import java.util.Locale;

/**
 * What a camera feature holds: colour video, depth video, or images stored in the data files
 * ({@code dtype: image}, PNG or JPEG bytes in a Parquet struct). Immutable, thread-safe (an enum).
 */
public enum CameraKind {
  VIDEO,
  DEPTH,
  IMAGE;

  /**
   * The kind of camera feature {@code f}: an image feature is {@link #IMAGE}; a video is {@link
   * #DEPTH} when its info says {@code video.is_depth_map: true} or its pixel format (declared
   * {@code video.pix_fmt}, or {@code probedPixelFormat}) is a single-channel gray one, as depth
   * writers store it; else {@link #VIDEO}.
   *
   * @param probedPixelFormat the pixel format of one of its files, or null when none was read
   * @throws IllegalArgumentException for a feature that is not a camera
   */
  public static CameraKind of(Feature f, String probedPixelFormat) {
    if (f.isImage()) {
      return IMAGE;
    }
    if (!f.isVideo()) {
      throw new IllegalArgumentException(
          f.name() + " is a " + f.dtype() + " feature, not a camera");
    }
    Object declared = f.videoInfo().get("video.pix_fmt");
    boolean depth =
        f.isDepthMap()
            || isGray(declared == null ? null : declared.toString())
            || isGray(probedPixelFormat);
    return depth ? DEPTH : VIDEO;
  }

  private static boolean isGray(String pixelFormat) {
    return pixelFormat != null && pixelFormat.startsWith("gray");
  }

  /** The lower-case name inspect and messages use: video, depth, image. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
