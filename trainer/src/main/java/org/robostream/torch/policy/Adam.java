package org.robostream.torch.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;

/**
 * Adam (Kingma and Ba, PyTorch's defaults: betas 0.9 and 0.999, eps 1e-8, no weight decay) whose
 * whole state, the step count and both moments of every parameter, can be saved and restored, so a
 * resumed run takes the same steps as the uninterrupted one. The update is PyTorch's: {@code m = b1
 * m + (1 - b1) g}, {@code v = b2 v + (1 - b2) g²}, {@code p -= lr / (1 - b1^t) * m / (sqrt(v) /
 * sqrt(1 - b2^t) + eps)}.
 *
 * <p>Ownership: owns the moment tensors ({@link #close}); the parameters stay the policy's.
 * Threading: one training thread.
 */
final class Adam implements AutoCloseable {
  static final double BETA1 = 0.9;
  static final double BETA2 = 0.999;
  static final double EPS = 1e-8;

  private final Map<String, Tensor> parameters;
  private final double learningRate;
  private final Map<String, Tensor> first = new LinkedHashMap<>();
  private final Map<String, Tensor> second = new LinkedHashMap<>();
  private long steps;

  /** Adam over {@code parameters} (the live tensors, by name), moments zero, no step taken. */
  Adam(Map<String, Tensor> parameters, double learningRate) {
    this.parameters = parameters;
    this.learningRate = learningRate;
    for (Map.Entry<String, Tensor> p : parameters.entrySet()) {
      first.put(p.getKey(), torch.zeros_like(p.getValue().detach()));
      second.put(p.getKey(), torch.zeros_like(p.getValue().detach()));
    }
  }

  /** Steps taken (Adam's t). */
  long steps() {
    return steps;
  }

  /** Sets Adam's t (to rank 0's, with its moments, so every replica's bias correction agrees). */
  void steps(long t) {
    if (t < 0) {
      throw new IllegalArgumentException("a step count of " + t);
    }
    steps = t;
  }

  /**
   * One update of every parameter with {@code gradients} (in parameter order). Runs outside
   * autograd: the parameters are changed in place through detached views.
   */
  void step(List<Tensor> gradients) {
    steps++;
    double correction1 = 1 - Math.pow(BETA1, steps);
    double correction2 = 1 - Math.pow(BETA2, steps);
    Scalar beta1 = new Scalar(BETA1);
    Scalar beta2 = new Scalar(BETA2);
    Scalar oneMinusBeta1 = new Scalar(1 - BETA1);
    Scalar oneMinusBeta2 = new Scalar(1 - BETA2);
    Scalar sqrtCorrection2 = new Scalar(Math.sqrt(correction2));
    Scalar eps = new Scalar(EPS);
    Scalar stepSize = new Scalar(-learningRate / correction1);
    int i = 0;
    for (Map.Entry<String, Tensor> p : parameters.entrySet()) {
      Tensor g = gradients.get(i++);
      Tensor m = first.get(p.getKey());
      Tensor v = second.get(p.getKey());
      m.mul_(beta1).add_(g, oneMinusBeta1);
      v.mul_(beta2).addcmul_(g, g, oneMinusBeta2);
      Tensor denominator = v.sqrt().div_(sqrtCorrection2).add_(eps);
      p.getValue().detach().addcdiv_(m, denominator, stepSize);
    }
  }

  /** The moments as checkpoint entries: {@code exp_avg.<name>}, {@code exp_avg_sq.<name>}. */
  Map<String, SafeTensors.Entry> state() {
    Map<String, SafeTensors.Entry> out = new LinkedHashMap<>();
    for (String name : parameters.keySet()) {
      Tensor m = first.get(name);
      out.put("exp_avg." + name, new SafeTensors.Entry(Tensors.shape(m), Tensors.values(m)));
    }
    for (String name : parameters.keySet()) {
      Tensor v = second.get(name);
      out.put("exp_avg_sq." + name, new SafeTensors.Entry(Tensors.shape(v), Tensors.values(v)));
    }
    return out;
  }

  /**
   * Restores a {@link #state()} and step count.
   *
   * @throws IllegalArgumentException naming the entry that is missing, unexpected or misshapen
   */
  void load(Map<String, SafeTensors.Entry> state, long steps) {
    if (steps < 0) {
      throw new IllegalArgumentException("a step count of " + steps);
    }
    List<String> expected = new ArrayList<>();
    parameters.keySet().forEach(n -> expected.add("exp_avg." + n));
    parameters.keySet().forEach(n -> expected.add("exp_avg_sq." + n));
    if (!new java.util.HashSet<>(state.keySet()).equals(new java.util.HashSet<>(expected))) {
      throw new IllegalArgumentException(
          "holds the moments " + state.keySet() + ", not " + expected);
    }
    for (String name : parameters.keySet()) {
      // Checked before any is copied: a negative second moment makes every later update NaN.
      finite(state.get("exp_avg." + name), "exp_avg." + name, false);
      finite(state.get("exp_avg_sq." + name), "exp_avg_sq." + name, true);
    }
    for (String name : parameters.keySet()) {
      copy(state.get("exp_avg." + name), first.get(name), "exp_avg." + name);
      copy(state.get("exp_avg_sq." + name), second.get(name), "exp_avg_sq." + name);
    }
    this.steps = steps;
  }

  /**
   * Refuses, in a file read, values no training writes.
   *
   * @throws IllegalArgumentException naming the tensor, the value and where it is
   */
  static void finite(SafeTensors.Entry e, String name, boolean nonNegative) {
    String why = notFinite(e, name, nonNegative);
    if (why != null) {
      throw new IllegalArgumentException(why + "; the file was altered or damaged");
    }
  }

  /**
   * What is wrong with {@code e}'s values, or null: NaN or infinite, or (a second moment, a mean of
   * squares) negative.
   */
  static String notFinite(SafeTensors.Entry e, String name, boolean nonNegative) {
    float[] v = e.values();
    for (int i = 0; i < v.length; i++) {
      if (!Float.isFinite(v[i]) || (nonNegative && v[i] < 0)) {
        return name
            + " holds "
            + v[i]
            + " at element "
            + i
            + (Float.isFinite(v[i])
                ? ": a second moment (a mean of squares) is never negative"
                : ": no training writes a value that is not finite");
      }
    }
    return null;
  }

  /** Copies {@code from} into {@code to} (same shape), on {@code to}'s device. */
  static void copy(SafeTensors.Entry from, Tensor to, String name) {
    long[] want = Tensors.shape(to);
    if (!java.util.Arrays.equals(from.shape(), want)) {
      throw new IllegalArgumentException(
          name
              + " is "
              + java.util.Arrays.toString(from.shape())
              + ", not "
              + java.util.Arrays.toString(want));
    }
    try (Tensor host =
        Tensors.of(want, from.values(), new org.bytedeco.pytorch.Device("cpu"), false)) {
      to.detach().copy_(host);
    }
  }

  /** The moments in parameter order (first, then second), for a broadcast from rank 0. */
  List<Tensor> moments() {
    List<Tensor> out = new ArrayList<>(first.values());
    out.addAll(second.values());
    return out;
  }

  @Override
  public void close() {
    first.values().forEach(Tensor::close);
    second.values().forEach(Tensor::close);
  }
}
