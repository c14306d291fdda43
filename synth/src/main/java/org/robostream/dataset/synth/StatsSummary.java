package org.robostream.dataset.synth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * min/max/mean/std/count of the generated {@code action} and {@code observation.state} values
 * ({@link TableValues}), globally (stats.json) and per episode (v2.1 episodes_stats.jsonl), as
 * LeRobot writes them: a policy normalises both with their mean and std. Stateless.
 */
final class StatsSummary {
  private StatsSummary() {}

  private interface Column {
    float value(TableValues values, int episode, int frame, int j);
  }

  private static final Column ACTION = TableValues::action;
  private static final Column STATE = TableValues::state;

  static Map<String, Object> global(SyntheticDatasetSpec spec) {
    List<double[]> perEpisode = new ArrayList<>();
    for (int e = 0; e < spec.episodes(); e++) {
      perEpisode.add(new double[] {e, spec.length(e)});
    }
    return both(spec, perEpisode);
  }

  static Map<String, Object> episode(SyntheticDatasetSpec spec, int e) {
    return both(spec, List.of(new double[] {e, spec.length(e)}));
  }

  /** The mean action of episode {@code e}, per dimension (the v3.0 episodes table's stats). */
  static double[] actionMean(SyntheticDatasetSpec spec, int e) {
    @SuppressWarnings("unchecked")
    List<Double> mean =
        (List<Double>) stats(spec, List.of(new double[] {e, spec.length(e)}), ACTION).get("mean");
    return mean.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static Map<String, Object> both(SyntheticDatasetSpec spec, List<double[]> episodes) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("action", stats(spec, episodes, ACTION));
    out.put("observation.state", stats(spec, episodes, STATE));
    return out;
  }

  private static Map<String, Object> stats(
      SyntheticDatasetSpec spec, List<double[]> episodes, Column column) {
    TableValues values = TableValues.of(spec);
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
          double v = column.value(values, (int) e[0], f, j);
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
