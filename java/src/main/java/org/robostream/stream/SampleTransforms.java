package org.robostream.stream;

import org.robostream.arrow.FrameColumn;
import org.robostream.transform.ImageTransform;
import org.robostream.transform.ImageTransformsConfig;
import org.robostream.transform.SampleFrames;
import org.robostream.transform.SampleRandom;

/**
 * A stream's image transforms: the built-ins ({@link ImageTransformsConfig}, drawn per sample and
 * camera, run by the frame paths where the frame is converted) and the user's {@link
 * ImageTransform} (run on the sample's frames in the batch once they are written). A sample is
 * identified by its {@code index} (the dataset-wide index of its frame), so the draws are the same
 * for the same sample and epoch in every run, worker, rank and resume. Depth cameras get no
 * built-in transform (colour operations mean nothing for a depth map); the user's sees them too.
 * Immutable, thread-safe (the user's transform must be: every worker calls it).
 */
record SampleTransforms(long seed, ImageTransformsConfig builtIns, ImageTransform user) {
  static final SampleTransforms NONE = new SampleTransforms(0, null, null);

  boolean any() {
    return builtIns != null || user != null;
  }

  /** The sample's dataset-wide index. */
  static long index(HeldSample item) {
    return item.episode().datasetFromIndex() + Samples.frame(item.sample());
  }

  /**
   * The built-in operations for {@code item}'s frames of camera number {@code camera} (every
   * position of its window gets the same), or null when there are none for it.
   */
  float[] builtInOps(HeldSample item, int camera, FrameColumn column, long epoch) {
    if (builtIns == null || column.samples().isDepth()) {
      return null;
    }
    return builtIns.draw(
        SampleRandom.of(seed, epoch, index(item), camera, SampleRandom.BUILT_IN),
        column.width(),
        column.height());
  }

  /**
   * Runs the user's transform on {@code item}'s frames of {@code column} at {@code address} (host
   * memory: every position of its window); a failure names the episode and camera.
   */
  void runUser(HeldSample item, int camera, FrameColumn column, long address, long epoch) {
    if (user == null) {
      return;
    }
    long index = index(item);
    SampleFrames frames =
        new SampleFrames(
            column.name(),
            index,
            epoch,
            column.positions(),
            column.channels(),
            column.height(),
            column.width(),
            column.layout(),
            column.dtype(),
            address,
            SampleRandom.of(seed, epoch, index, camera, SampleRandom.USER));
    try {
      user.apply(frames);
    } catch (RuntimeException e) {
      throw new SampleException(
          item.episode().dataFile().toString(),
          item.episode().index(),
          column.name(),
          "the image transform failed on sample " + index + ": " + e,
          e);
    }
  }
}
