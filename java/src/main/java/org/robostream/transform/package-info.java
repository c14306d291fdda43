/**
 * Image transforms run by the loader's workers before batching (the reference's {@code
 * image_transforms}): {@link org.robostream.transform.ImageTransformsConfig}, the built-ins of
 * LeRobot's default config in native code, and {@link org.robostream.transform.ImageTransform}, a
 * hook over one sample's frames of one camera ({@link org.robostream.transform.SampleFrames}).
 * Every draw is seeded by the sample's identity and the epoch ({@link
 * org.robostream.transform.SampleRandom}), so resumes stay exact.
 */
package org.robostream.transform;
