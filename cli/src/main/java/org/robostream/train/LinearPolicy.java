package org.robostream.train;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The training example's model: the first action of the chunk predicted linearly from the state,
 * {@code a = W s + b}, fitted by plain SGD on the mean squared error. Small on purpose: it shows
 * that batches feed a real optimisation loop; trainers bring their own models.
 *
 * <p>Inputs and targets are multiplied by an input scale (1 / the largest |state| of the first
 * batch, at most 1) to keep SGD stable for unnormalised data. The scale is part of the model's
 * state: it is saved and loaded with the weights, so a resumed run computes exactly what an
 * uninterrupted one does. Not thread-safe.
 */
public final class LinearPolicy {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final int stateDim;
  private final int actionDim;
  private final double[] weights; // actionDim x stateDim, row-major
  private final double[] bias;
  private final double learningRate;
  private double inputScale; // 0 until the first batch fixes it

  public LinearPolicy(int stateDim, int actionDim, double learningRate) {
    this.stateDim = stateDim;
    this.actionDim = actionDim;
    this.weights = new double[actionDim * stateDim];
    this.bias = new double[actionDim];
    this.learningRate = learningRate;
  }

  /**
   * One SGD step on a batch; returns the loss before the step. {@code states} is [n, stateDim],
   * {@code actions} [n, actionDim].
   */
  public double step(double[] states, double[] actions, int n) {
    if (inputScale == 0) {
      double max = 1;
      for (double v : states) {
        max = Math.max(max, Math.abs(v));
      }
      inputScale = 1 / max;
    }
    double scale = inputScale;
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

  /** The input scale the first batch fixed; 0 before any step. */
  public double inputScale() {
    return inputScale;
  }

  public void save(Path file) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("state_dim", stateDim);
    m.put("action_dim", actionDim);
    m.put("input_scale", inputScale);
    m.put("weights", weights);
    m.put("bias", bias);
    JSON.writeValue(file.toFile(), m);
  }

  /** Loads weights, bias and input scale saved by {@link #save} for a policy of this shape. */
  public void load(Path file) throws IOException {
    JsonNode node = JSON.readTree(file.toFile());
    if (node.path("state_dim").asInt() != stateDim
        || node.path("action_dim").asInt() != actionDim) {
      throw new IOException(file + " holds a policy of another shape");
    }
    if (!node.has("input_scale")) {
      throw new IOException(
          file
              + " has no input_scale (saved by an older version): resuming"
              + " from it would not continue the same optimisation");
    }
    List<Double> w = JSON.convertValue(node.get("weights"), new TypeReference<List<Double>>() {});
    List<Double> b = JSON.convertValue(node.get("bias"), new TypeReference<List<Double>>() {});
    if (w.size() != weights.length || b.size() != bias.length) {
      throw new IOException(
          file
              + " holds "
              + w.size()
              + " weights and "
              + b.size()
              + " biases, expected "
              + weights.length
              + " and "
              + bias.length);
    }
    for (int k = 0; k < weights.length; k++) {
      weights[k] = w.get(k);
    }
    for (int a = 0; a < actionDim; a++) {
      bias[a] = b.get(a);
    }
    inputScale = node.get("input_scale").asDouble();
  }
}
