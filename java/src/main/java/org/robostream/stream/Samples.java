package org.robostream.stream;

/**
 * A sample is one frame of one episode, packed in a long as {@code episode << 32 | frame} so that
 * orders of millions of samples stay small arrays. Stateless.
 */
public final class Samples {
  private Samples() {}

  public static long of(int episode, int frame) {
    return ((long) episode << 32) | (frame & 0xFFFFFFFFL);
  }

  public static int episode(long sample) {
    return (int) (sample >>> 32);
  }

  public static int frame(long sample) {
    return (int) sample;
  }

  public static String toString(long sample) {
    return "episode " + episode(sample) + " frame " + frame(sample);
  }
}
