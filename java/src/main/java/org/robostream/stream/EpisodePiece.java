package org.robostream.stream;

import java.util.Arrays;

/**
 * The frames of one episode still to be delivered in an epoch, ascending: the whole episode at the
 * start of an epoch, what is left of it after an elastic resume. Immutable.
 */
public record EpisodePiece(int episode, int[] frames) {
  public EpisodePiece {
    frames = frames.clone();
    for (int i = 1; i < frames.length; i++) {
      if (frames[i] <= frames[i - 1]) {
        throw new IllegalArgumentException("frames of episode " + episode + " must ascend");
      }
    }
  }

  public static EpisodePiece whole(int episode, int length) {
    int[] f = new int[length];
    for (int i = 0; i < length; i++) {
      f[i] = i;
    }
    return new EpisodePiece(episode, f);
  }

  public int size() {
    return frames.length;
  }

  int frameAt(int i) {
    return frames[i];
  }

  @Override
  public int[] frames() {
    return frames.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EpisodePiece p && p.episode == episode && Arrays.equals(p.frames, frames);
  }

  @Override
  public int hashCode() {
    return episode * 31 + Arrays.hashCode(frames);
  }
}
