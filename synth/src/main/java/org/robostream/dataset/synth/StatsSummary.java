package org.robostream.dataset.synth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * min/max/mean/std/count of the generated {@code action} values, globally (stats.json) and per
 * episode (v2.1 episodes_stats.jsonl), from their closed form. Stateless.
 */
final class StatsSummary {
  private StatsSummary() {}

  static Map<String, Object> global(SyntheticDatasetSpec spec) {
    List<double[]> perEpisode = new ArrayList<>();
    for (int e = 0; e < spec.episodes(); e++) {
      perEpisode.add(new double[] {e, spec.length(e)});
    }
    return Map.of("action", stats(spec, perEpisode));
  }

  static Map<String, Object> episode(SyntheticDatasetSpec spec, int e) {
    return Map.of("action", stats(spec, List.of(new double[] {e, spec.length(e)})));
  }

  private static Map<String, Object> stats(SyntheticDatasetSpec spec, List<double[]> episodes) {
    int d = spec.stateDimension();
    List<Double> min = new ArrayList<>();
    List<Double> max = new ArrayList<>();
    List<Double> mean = new ArrayList<>();
    List<Double> std = new ArrayList<>();
    long count = 0;
    for (double[] e : episodes) {
      count += (long) e[1];
    }
    for (int j = 0; j < d; j++) {
      double lo = Double.MAX_VALUE;
      double hi = -Double.MAX_VALUE;
      double sum = 0;
      double sumSq = 0;
      for (double[] e : episodes) {
        for (int f = 0; f < (int) e[1]; f++) {
          double v = SyntheticValues.action((int) e[0], f, j);
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
          sum += v;
          sumSq += v * v;
        }
      }
      double m = sum / count;
      min.add(lo);
      max.add(hi);
      mean.add(m);
      std.add(Math.sqrt(Math.max(0, sumSq / count - m * m)));
    }
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("min", min);
    s.put("max", max);
    s.put("mean", mean);
    s.put("std", std);
    s.put("count", List.of(count));
    return s;
  }
}
