package org.robostream.transform;

/**
 * A transform of one sample's frames of one camera, run by the loader's workers before the sample
 * is batched (after the built-in {@link ImageTransformsConfig} transforms, if any): the reference's
 * {@code image_transforms} callable. It changes the frames in place, in the batch's memory (host
 * memory: a dataset whose frames stay on a GPU refuses transforms when it is built).
 *
 * <p>Draw every random number from {@link SampleFrames#random()}: it is seeded by the dataset seed,
 * the epoch, the sample's index and the camera, so a resumed or re-sharded run transforms every
 * sample exactly as the uninterrupted one. Threading: called concurrently from every worker thread,
 * so an implementation must be thread-safe (stateless, or its state synchronised); a thrown
 * exception fails the batch like a decoding error ({@code SampleException} naming the episode and
 * camera).
 */
@FunctionalInterface
public interface ImageTransform {
  void apply(SampleFrames frames);
}
