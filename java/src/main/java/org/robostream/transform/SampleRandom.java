package org.robostream.transform;

import java.util.SplittableRandom;

/**
 * The generators of image transforms, one per (dataset seed, epoch, sample index, camera, use): a
 * pure function of them, so every run, worker, rank and resume draws the same numbers for the same
 * sample. {@code use} separates the built-in transforms' draws from a user transform's, so adding
 * one does not change the other. Stateless.
 */
public final class SampleRandom {
  /** The built-in transforms' draws. */
  public static final int BUILT_IN = 1;

  /** A user {@link ImageTransform}'s draws. */
  public static final int USER = 2;

  private SampleRandom() {}

  public static SplittableRandom of(long seed, long epoch, long index, int camera, int use) {
    long h = mix(seed ^ 0x6A09E667F3BCC909L);
    h = mix(h ^ epoch);
    h = mix(h ^ index);
    h = mix(h ^ ((long) camera << 8 | use));
    return new SplittableRandom(h);
  }

  /** SplitMix64's finaliser: every input bit changes about half of the output bits. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
