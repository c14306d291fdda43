package org.robostream.train;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The training example's model: the first action of the chunk predicted linearly from the state,
 * {@code a = W s + b}, fitted by plain SGD on the mean squared error. Small on purpose: it shows
 * that batches feed a real optimisation loop; trainers bring their own models. Not thread-safe.
 */
public final class LinearPolicy {
  private final int stateDim;
  private final int actionDim;
  private final double[] weights; // actionDim x stateDim, row-major
  private final double[] bias;
  private final double learningRate;

  public LinearPolicy(int stateDim, int actionDim, double learningRate) {
    this.stateDim = stateDim;
    this.actionDim = actionDim;
    this.weights = new double[actionDim * stateDim];
    this.bias = new double[actionDim];
    this.learningRate = learningRate;
  }

  /**
   * One SGD step on a batch; returns the loss before the step. {@code states} is [n, stateDim],
   * {@code actions} [n, actionDim]; inputs are scaled by {@code scale} to keep SGD stable.
   */
  public double step(double[] states, double[] actions, int n, double scale) {
    double[] gradW = new double[weights.length];
    double[] gradB = new double[bias.length];
    double loss = 0;
    for (int i = 0; i < n; i++) {
      for (int a = 0; a < actionDim; a++) {
        double pred = bias[a];
        for (int s = 0; s < stateDim; s++) {
          pred += weights[a * stateDim + s] * states[i * stateDim + s] * scale;
        }
        double err = pred - actions[i * actionDim + a] * scale;
        loss += err * err;
        gradB[a] += 2 * err;
        for (int s = 0; s < stateDim; s++) {
          gradW[a * stateDim + s] += 2 * err * states[i * stateDim + s] * scale;
        }
      }
    }
    double norm = (double) n * actionDim;
    for (int k = 0; k < weights.length; k++) {
      weights[k] -= learningRate * gradW[k] / norm;
    }
    for (int a = 0; a < actionDim; a++) {
      bias[a] -= learningRate * gradB[a] / norm;
    }
    return loss / norm;
  }

  public void save(Path file) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("state_dim", stateDim);
    m.put("action_dim", actionDim);
    m.put("weights", weights);
    m.put("bias", bias);
    new ObjectMapper().writeValue(file.toFile(), m);
  }

  public void load(Path file) throws IOException {
    var node = new ObjectMapper().readTree(file.toFile());
    if (node.path("state_dim").asInt() != stateDim || node.path("action_dim").asInt() != actionDim) {
      throw new IOException(file + " holds a policy of another shape");
    }
    List<Double> w = new ObjectMapper().convertValue(node.get("weights"),
        new com.fasterxml.jackson.core.type.TypeReference<List<Double>>() {});
    List<Double> b = new ObjectMapper().convertValue(node.get("bias"),
        new com.fasterxml.jackson.core.type.TypeReference<List<Double>>() {});
    for (int k = 0; k < weights.length; k++) {
      weights[k] = w.get(k);
    }
    for (int a = 0; a < actionDim; a++) {
      bias[a] = b.get(a);
    }
  }
}
