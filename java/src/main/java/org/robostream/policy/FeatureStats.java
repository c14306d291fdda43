package org.robostream.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import org.robostream.dataset.LeRobotMetadata;

/**
 * A feature's per-dimension mean and standard deviation, for the policy's mean/std normalisation
 * (LeRobot's MEAN_STD for state and action): from {@code meta/stats.json} when the dataset has one
 * (v3.0, v2.0), else aggregated over the selected episodes' {@code meta/episodes_stats.jsonl} rows
 * (v2.1) as LeRobot's {@code aggregate_stats} does (count-weighted mean; variance = the weighted
 * mean of each episode's variance plus its squared distance from the overall mean).
 *
 * <p>A feature neither file describes, or describes with another length or a value that is not a
 * finite number, is an {@link IllegalArgumentException} naming the file and the key: training on
 * unnormalised or wrongly normalised values would run but learn badly, silently. Immutable (the
 * arrays are copies).
 */
public record FeatureStats(String key, float[] mean, float[] std) {
  /** LeRobot's normalisation adds this to std, so a constant dimension maps to 0, not NaN. */
  public static final float EPSILON = 1e-8f;

  public FeatureStats {
    if (mean.length != std.length || mean.length == 0) {
      throw new IllegalArgumentException(
          key
              + ": mean and std need the same, non-zero length ("
              + mean.length
              + ", "
              + std.length
              + ")");
    }
    mean = mean.clone();
    std = std.clone();
  }

  public int dimension() {
    return mean.length;
  }

  @Override
  public float[] mean() {
    return mean.clone();
  }

  @Override
  public float[] std() {
    return std.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FeatureStats f
        && key.equals(f.key)
        && java.util.Arrays.equals(mean, f.mean)
        && java.util.Arrays.equals(std, f.std);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * key.hashCode() + java.util.Arrays.hashCode(mean))
        + java.util.Arrays.hashCode(std);
  }

  @Override
  public String toString() {
    return key
        + "{mean "
        + java.util.Arrays.toString(mean)
        + ", std "
        + java.util.Arrays.toString(std)
        + "}";
  }

  /** The stats of {@code key} (a feature of {@code dim} values per row) over the kept episodes. */
  public static FeatureStats of(LeRobotMetadata metadata, String key, int dim) {
    Path meta = metadata.root().resolve("meta");
    Optional<JsonNode> global = metadata.stats();
    if (global.isPresent()) {
      String file = meta.resolve("stats.json").toString();
      JsonNode feature = global.get().get(key);
      if (feature == null) {
        throw new IllegalArgumentException(
            file
                + " has no stats for "
                + key
                + " (the policy normalises it with its mean and std)");
      }
      return new FeatureStats(
          key, values(feature, "mean", dim, file, key), values(feature, "std", dim, file, key));
    }
    Map<Integer, JsonNode> perEpisode = metadata.episodeStats();
    if (perEpisode.isEmpty()) {
      throw new IllegalArgumentException(
          meta
              + " has neither stats.json nor episodes_stats.jsonl: the policy normalises "
              + key
              + " with its mean and std");
    }
    return aggregate(
        key,
        dim,
        metadata.episodes().stream().map(e -> e.index()).toList(),
        perEpisode,
        meta.resolve("episodes_stats.jsonl").toString());
  }

  /** LeRobot's aggregate_stats over {@code episodes}' rows of episodes_stats.jsonl. */
  static FeatureStats aggregate(
      String key, int dim, Collection<Integer> episodes, Map<Integer, JsonNode> rows, String file) {
    double[] sum = new double[dim];
    double total = 0;
    double[][] means = new double[episodes.size()][];
    double[][] vars = new double[episodes.size()][];
    double[] counts = new double[episodes.size()];
    int i = 0;
    for (int episode : episodes) {
      JsonNode stats = rows.get(episode);
      String where = file + " (episode " + episode + ")";
      if (stats == null || stats.get(key) == null) {
        throw new IllegalArgumentException(
            where
                + " has no stats for "
                + key
                + " (the policy normalises it with its mean and std)");
      }
      JsonNode feature = stats.get(key);
      float[] m = values(feature, "mean", dim, where, key);
      float[] s = values(feature, "std", dim, where, key);
      float[] n = values(feature, "count", 1, where, key);
      if (n[0] <= 0) {
        throw new IllegalArgumentException(
            where + ": " + key + ".count must be positive, not " + n[0]);
      }
      means[i] = new double[dim];
      vars[i] = new double[dim];
      for (int d = 0; d < dim; d++) {
        means[i][d] = m[d];
        vars[i][d] = (double) s[d] * s[d];
        sum[d] += n[0] * (double) m[d];
      }
      counts[i] = n[0];
      total += n[0];
      i++;
    }
    float[] mean = new float[dim];
    float[] std = new float[dim];
    for (int d = 0; d < dim; d++) {
      double mu = sum[d] / total;
      double var = 0;
      for (int e = 0; e < counts.length; e++) {
        double delta = means[e][d] - mu;
        var += counts[e] * (vars[e][d] + delta * delta);
      }
      mean[d] = (float) mu;
      std[d] = (float) Math.sqrt(var / total);
    }
    return new FeatureStats(key, mean, std);
  }

  private static float[] values(JsonNode feature, String name, int dim, String file, String key) {
    JsonNode node = feature.get(name);
    if (node == null || !node.isArray() || node.size() != dim) {
      throw new IllegalArgumentException(
          file
              + ": "
              + key
              + "."
              + name
              + " must be an array of "
              + dim
              + " numbers (the feature's shape), not "
              + (node == null
                  ? "missing"
                  : node.isArray() ? node.size() + " values" : node.getNodeType()));
    }
    float[] out = new float[dim];
    for (int i = 0; i < dim; i++) {
      JsonNode v = node.get(i);
      if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
        throw new IllegalArgumentException(
            file + ": " + key + "." + name + "[" + i + "] is not a finite number");
      }
      if (name.equals("std") && v.asDouble() < 0) {
        // (a policy dividing by it would flip the feature's sign: silent wrong training)
        throw new IllegalArgumentException(
            file
                + ": "
                + key
                + ".std["
                + i
                + "] is "
                + v.asDouble()
                + ": a standard deviation is"
                + " never negative");
      }
      out[i] = (float) v.asDouble();
    }
    return out;
  }
}
