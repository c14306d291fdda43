package org.robostream.dataset.synth;

import java.util.SplittableRandom;

/**
 * Camera-like frames: a lit scene (gradient, a few moving objects) with per-pixel sensor noise that
 * changes every frame, so encoders cannot skip work as they do on synthetic patterns. Deterministic
 * per (episode, camera). The red ball's centre ({@link #ballCentre}) is what the camera content's
 * actions are made of ({@link TableValues}), so a policy trained on such a dataset learns from what
 * its cameras show. Not thread-safe: one per video being written.
 */
final class CameraContent {
  private final int width;
  private final int height;
  private final SplittableRandom noise;
  private final double phase;

  CameraContent(int width, int height, int episode, int camera) {
    this.width = width;
    this.height = height;
    this.noise = new SplittableRandom(episode * 1_000_003L + camera * 7919L + 17);
    this.phase = episode * 0.7 + camera * 1.9;
  }

  /**
   * The red ball's centre in {@code frame} of (episode, camera): {x, y} as fractions in [0.15,
   * 0.85].
   */
  static double[] ballCentre(int episode, int frame, int camera) {
    double t = frame * 0.05 + episode * 0.7 + camera * 1.9;
    return new double[] {0.5 + 0.35 * Math.sin(t), 0.5 + 0.35 * Math.cos(t * 0.8)};
  }

  void paint(byte[] rgb, int frame) {
    double t = frame * 0.05 + phase;
    double bx = (0.5 + 0.35 * Math.sin(t)) * width;
    double by = (0.5 + 0.35 * Math.cos(t * 0.8)) * height;
    double r2 = Math.pow(Math.min(width, height) * 0.18, 2);
    double sx = (0.5 + 0.4 * Math.cos(t * 1.3)) * width;
    int i = 0;
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        int base = 60 + (120 * y) / height + (40 * x) / width;
        int r = base;
        int g = base - 10;
        int b = base - 30;
        double dx = x - bx;
        double dy = y - by;
        if (dx * dx + dy * dy < r2) {
          r = 200;
          g = 60;
          b = 40;
        } else if (Math.abs(x - sx) < width * 0.05 && y > height * 0.6) {
          r = 40;
          g = 90;
          b = 200;
        }
        int n = noise.nextInt(25) - 12;
        rgb[i++] = clamp(r + n);
        rgb[i++] = clamp(g + n);
        rgb[i++] = clamp(b + n);
      }
    }
  }

  private static byte clamp(int v) {
    return (byte) Math.max(0, Math.min(255, v));
  }
}
