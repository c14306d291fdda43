package org.robostream.stream;

/**
 * The loader's random number generator, fixed so that sample orders are reproducible across
 * versions, JVMs and languages (a test oracle re-implements it in a few lines): SplitMix64 (Steele,
 * Lea, Flood 2014). Not thread-safe: one per sampler.
 *
 * <ul>
 *   <li>{@link #nextLong()}: {@code state += 0x9E3779B97F4A7C15}, then the SplitMix64 finalizer
 *       {@link #mix} of the state.
 *   <li>{@link #nextInt(int) nextInt(n)}: {@code ((nextLong() >>> 32) * n) >>> 32}, in [0, n).
 *   <li>{@link #derive(long...) derive(a, b, ...)}: {@code h = 0}; for each part {@code h = mix(h +
 *       0x9E3779B97F4A7C15 + part)}: independent seeds for (seed, epoch, ...).
 * </ul>
 */
public final class SplitMix64 {
  static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private long state;

  public SplitMix64(long seed) {
    this.state = seed;
  }

  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  public static long derive(long... parts) {
    long h = 0;
    for (long p : parts) {
      h = mix(h + GOLDEN + p);
    }
    return h;
  }

  public long nextLong() {
    state += GOLDEN;
    return mix(state);
  }

  /** Uniform in [0, bound), bound ≥ 1. */
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + bound);
    }
    return (int) (((nextLong() >>> 32) * bound) >>> 32);
  }

  /** Fisher-Yates from the end: for k = n-1 down to 1 swap a[k] with a[nextInt(k + 1)]. */
  public void shuffle(long[] a, int n) {
    for (int k = n - 1; k > 0; k--) {
      int j = nextInt(k + 1);
      long t = a[k];
      a[k] = a[j];
      a[j] = t;
    }
  }
}
