package org.robostream.cli;

import org.robostream.stream.StreamingDataset;
import picocli.CommandLine.Mixin;

/**
 * How frames come out of the loader, the flags {@code bench}, {@code stream-bench} and {@code
 * train} share (a picocli mixin of mixins): resize, timestamp rule, image transforms, frame cache.
 * Not thread-safe (filled by picocli, read once).
 */
final class FrameOptions {
  @Mixin ResizeOptions resize;

  @Mixin TimestampsOption timestamps;

  @Mixin ImageTransformOptions imageTransforms;

  @Mixin FrameCacheFlag frameCache;

  /** Parses every flag, so a typo is an exit 2 before the dataset is opened. */
  void check() {
    resize.check();
    timestamps.rule();
    imageTransforms.config();
    frameCache.options();
  }

  void applyTo(StreamingDataset.Builder builder) {
    resize.applyTo(builder);
    timestamps.applyTo(builder);
    imageTransforms.applyTo(builder);
    frameCache.applyTo(builder);
  }
}
