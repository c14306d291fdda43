package org.robostream.dataset.synth;

import java.util.SplittableRandom;

/**
 * The learnable content ({@code make-dataset --content learnable}): every camera shows one bright
 * disc on a dark background, and the action is where the disc is, so a policy can only predict it
 * by looking at the right frame. A test that trains on it sees the loss fall; a loader that
 * delivers another frame than the row's (or a dataset whose actions are shifted) learns worse.
 *
 * <p>The disc's centre (x, y), as fractions of the frame in [0.15, 0.85], follows a smooth
 * trajectory of its own per episode (two sines per axis, frequencies and phases drawn from the
 * episode's seed), so where it will be a few frames later is not a function of where it is now.
 * Action dimension j is x (even j) or y (odd j) times {@code 1 + j / 8}; the state is 0 (it says
 * nothing; the frames must). With {@code actionShift} s the action of frame f is the position of
 * frame {@code min(f + s, length - 1)}: the "misaligned" dataset of the alignment test. Immutable,
 * thread-safe.
 */
public final class LearnableTask {
  private final SyntheticDatasetSpec spec;

  LearnableTask(SyntheticDatasetSpec spec) {
    this.spec = spec;
  }

  /** The disc's centre in frame {@code frame} of {@code episode}: {x, y} in [0.15, 0.85]. */
  public static double[] position(int episode, int frame) {
    SplittableRandom r = new SplittableRandom(0x5EEDL * 1_000_003L + episode);
    double[] out = new double[2];
    for (int axis = 0; axis < 2; axis++) {
      double w1 = 0.04 + 0.08 * r.nextDouble();
      double w2 = 0.10 + 0.10 * r.nextDouble();
      double p1 = 2 * Math.PI * r.nextDouble();
      double p2 = 2 * Math.PI * r.nextDouble();
      out[axis] = 0.5 + 0.22 * Math.sin(w1 * frame + p1) + 0.13 * Math.sin(w2 * frame + p2);
    }
    return out;
  }

  /** The action of (episode, frame), dimension {@code j}. */
  float action(int episode, int frame, int j) {
    int at = Math.min(frame + spec.actionShift(), spec.length(episode) - 1);
    double[] p = position(episode, at);
    return (float) (p[j % 2] * (1 + j / 8.0));
  }

  float state(int episode, int frame, int j) {
    return 0f;
  }

  /** Paints frame {@code frame} of {@code camera} into an RGB24 HWC image. */
  static void paint(byte[] rgb, int width, int height, int episode, int frame, int camera) {
    double[] p = position(episode, frame);
    double cx = p[0] * width;
    double cy = p[1] * height;
    double radius = 0.09 * Math.min(width, height);
    int[] colour = {230 - 40 * (camera % 3), 220, 90 + 60 * (camera % 3)};
    int i = 0;
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        double dx = x + 0.5 - cx;
        double dy = y + 0.5 - cy;
        // A soft edge of one pixel: the encoder keeps the centre where it was painted.
        double inside = Math.max(0, Math.min(1, radius + 0.5 - Math.sqrt(dx * dx + dy * dy)));
        int background = 24 + (16 * y) / height;
        for (int c = 0; c < 3; c++) {
          rgb[i++] = (byte) Math.round(background + inside * (colour[c] - background));
        }
      }
    }
  }
}
