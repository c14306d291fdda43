package org.robostream.dataset.synth;

import java.util.Locale;

/**
 * How a generated dataset stores its cameras: as videos (MP4 files, info.json dtype {@code video})
 * or as image features (each frame's PNG or JPEG bytes inside the data Parquet, in the struct
 * {@code {bytes, path}} that Hugging Face datasets' {@code Image} type writes, info.json dtype
 * {@code image}; about a sixth of published LeRobot datasets do this). Immutable.
 */
public enum CameraFormat {
  VIDEO(null),
  PNG("png"),
  JPEG("jpg");

  private final String extension;

  CameraFormat(String extension) {
    this.extension = extension;
  }

  /** Whether the cameras are image features rather than videos. */
  public boolean isImage() {
    return this != VIDEO;
  }

  /** The file extension of an image's {@code path} entry ("png", "jpg"); null for videos. */
  public String extension() {
    return extension;
  }

  /** {@code png} or {@code jpeg} (make-dataset's {@code --image-features}). */
  public static CameraFormat parseImage(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "png" -> PNG;
      case "jpeg", "jpg" -> JPEG;
      default -> throw new IllegalArgumentException("unknown image format " + s + " (png or jpeg)");
    };
  }
}
