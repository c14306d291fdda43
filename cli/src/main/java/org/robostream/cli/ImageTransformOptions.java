package org.robostream.cli;

import org.robostream.stream.StreamingDataset;
import org.robostream.transform.ImageTransformsConfig;
import picocli.CommandLine.Option;

/**
 * The image-transform flags of {@code bench}, {@code stream-bench} and {@code train} (a picocli
 * mixin): {@code --image-transforms} turns on LeRobot's default image transforms (at most 3 of
 * brightness, contrast, saturation, hue, sharpness, affine per sample), {@code
 * --image-transforms-only}, {@code --image-transforms-max-num} and {@code
 * --image-transforms-random-order} change which and how many, as LeRobot's {@code
 * image_transforms.*} settings do. Not thread-safe (filled by picocli, read once).
 */
final class ImageTransformOptions {
  @Option(
      names = {"--image-transforms", "--image_transforms"},
      description =
          "transform every sample's frames in the workers with LeRobot's default image"
              + " transforms (a random 3 of brightness, contrast, saturation, hue, sharpness,"
              + " affine per sample; seeded by the sample and epoch, so resumes stay exact)")
  boolean enabled;

  @Option(
      names = "--image-transforms-only",
      paramLabel = "NAME,...",
      description = "only these of the default transforms (implies --image-transforms)")
  String only;

  @Option(
      names = "--image-transforms-max-num",
      paramLabel = "N",
      description = "transforms per sample (default 3; implies --image-transforms)")
  Integer maxNum;

  @Option(
      names = "--image-transforms-random-order",
      description = "apply them in the order drawn, not the list's (implies --image-transforms)")
  boolean randomOrder;

  /** The configuration the flags ask for, or null; a mistake is an exit 2 before any work. */
  ImageTransformsConfig config() {
    if (!enabled && only == null && maxNum == null && !randomOrder) {
      return null;
    }
    try {
      ImageTransformsConfig c = ImageTransformsConfig.lerobotDefaults();
      if (only != null) {
        c = c.only(only.split(","));
      }
      if (maxNum != null) {
        c = c.withMaxNumTransforms(maxNum);
      }
      return c.withRandomOrder(randomOrder);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--image-transforms: " + e.getMessage(), e);
    }
  }

  void applyTo(StreamingDataset.Builder builder) {
    ImageTransformsConfig c = config();
    if (c != null) {
      builder.imageTransforms(c);
    }
  }
}
