package org.robostream.bench;

import java.util.Arrays;

/**
 * Percentiles as the reference benchmark computes them: p50 = median, p95/p99 = nearest rank on the
 * sorted values at index {@code round(p / 100 * (n - 1))}. Stateless.
 */
public final class LatencyStats {
  private LatencyStats() {}

  public static double median(double[] values) {
    double[] v = sorted(values);
    int n = v.length;
    if (n == 0) {
      return Double.NaN;
    }
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  public static double nearestRank(double[] values, double percent) {
    double[] v = sorted(values);
    if (v.length == 0) {
      return Double.NaN;
    }
    return v[(int) Math.round(percent / 100 * (v.length - 1))];
  }

  private static double[] sorted(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v;
  }
}
