package org.robostream.djl.policy;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.nn.Parameter;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.util.Pair;
import ai.djl.util.PairList;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * Adam (Kingma and Ba; PyTorch's formulation: {@code w -= lr / (1 - b1^t) * m / (sqrt(v / (1 -
 * b2^t)) + eps)}) whose state can be saved and restored: DJL's own {@code Adam} keeps its moments
 * and its per-parameter step counts in private fields, so a resumed run would start them again from
 * zero and diverge from the uninterrupted one. Here the first and second moments and the step count
 * of every parameter are saved under the parameter's name in the block (a DJL parameter's id is a
 * random UUID per process, its name is stable).
 *
 * <p>Threading: DJL calls {@link #update} from the training thread; not thread-safe otherwise.
 */
public final class ResumableAdam extends Optimizer {
  private final float learningRate;
  private final float beta1;
  private final float beta2;
  private final float epsilon;
  private final Map<String, NDArray> means = new HashMap<>();
  private final Map<String, NDArray> variances = new HashMap<>();
  private final Map<String, Integer> steps = new HashMap<>();

  private ResumableAdam(Builder b) {
    super(b);
    this.learningRate = b.learningRate;
    this.beta1 = b.beta1;
    this.beta2 = b.beta2;
    this.epsilon = b.epsilon;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public void update(String parameterId, NDArray weight, NDArray grad) {
    int t = steps.merge(parameterId, 1, Integer::sum);
    NDArray m = means.computeIfAbsent(parameterId, k -> weight.zerosLike());
    NDArray v = variances.computeIfAbsent(parameterId, k -> weight.zerosLike());
    try (NDManager scratch = weight.getManager().newSubManager()) {
      NDArray g = grad.duplicate();
      g.attach(scratch);
      m.muli(beta1).addi(attach(g.mul(1 - beta1), scratch));
      v.muli(beta2).addi(attach(g.square().muli(1 - beta2), scratch));
      double biasCorrection1 = 1 - Math.pow(beta1, t);
      double biasCorrection2 = 1 - Math.pow(beta2, t);
      NDArray denominator =
          attach(v.sqrt(), scratch).divi((float) Math.sqrt(biasCorrection2)).addi(epsilon);
      NDArray step =
          attach(m.div(denominator), scratch).muli((float) (learningRate / biasCorrection1));
      weight.subi(step);
    }
    // DJL's own optimizers zero the gradient in PyTorch's fused update; without that it would
    // accumulate over steps. `grad` is DJL's copy, the weight's gradient is the real one.
    try (NDArray accumulated = weight.getGradient()) {
      accumulated.muli(0f);
    }
  }

  private static NDArray attach(NDArray array, NDManager manager) {
    array.attach(manager);
    return array;
  }

  /** Steps taken so far for the parameter of {@code parameterId} (0 before its first update). */
  public int stepsOf(String parameterId) {
    return steps.getOrDefault(parameterId, 0);
  }

  /**
   * Writes the state of {@code parameters} (a block's {@code getParameters()}: names and
   * parameters) in DJL's NDList encoding: per parameter that has been updated its step count {@code
   * t:<name>}, moments {@code m:<name>} and {@code v:<name>}.
   */
  public void save(PairList<String, Parameter> parameters, OutputStream out, NDManager manager)
      throws IOException {
    NDList state = new NDList();
    try (NDManager scratch = manager.newSubManager()) {
      for (Pair<String, Parameter> p : parameters) {
        String id = p.getValue().getId();
        Integer t = steps.get(id);
        if (t == null) {
          continue;
        }
        NDArray count = scratch.create(new int[] {t});
        count.setName("t:" + p.getKey());
        NDArray m = means.get(id).duplicate();
        m.attach(scratch);
        m.setName("m:" + p.getKey());
        NDArray v = variances.get(id).duplicate();
        v.attach(scratch);
        v.setName("v:" + p.getKey());
        state.add(count);
        state.add(m);
        state.add(v);
      }
      state.encode(out);
    }
  }

  /**
   * Restores what {@link #save} wrote for {@code parameters}. Every saved name must be a parameter
   * of the block with the saved moments' shape, else an {@link IOException} naming it: moments
   * loaded into another model would be silently wrong.
   */
  public void load(PairList<String, Parameter> parameters, InputStream in, NDManager manager)
      throws IOException {
    Map<String, Parameter> byName = new HashMap<>();
    for (Pair<String, Parameter> p : parameters) {
      byName.put(p.getKey(), p.getValue());
    }
    NDList state;
    try {
      state = NDList.decode(manager, in);
    } catch (RuntimeException e) {
      throw new IOException("the optimizer state cannot be read: " + e.getMessage(), e);
    }
    if (state.size() % 3 != 0) {
      throw new IOException("the optimizer state holds " + state.size() + " arrays, not triples");
    }
    clearState();
    for (int i = 0; i < state.size(); i += 3) {
      String stepName = state.get(i).getName();
      if (stepName == null || !stepName.startsWith("t:")) {
        throw new IOException("the optimizer state's array " + i + " is not a step count");
      }
      String name = stepName.substring(2);
      Parameter p = byName.get(name);
      NDArray m = state.get(i + 1);
      NDArray v = state.get(i + 2);
      if (p == null) {
        throw new IOException(
            "the optimizer state's " + name + " is not a parameter of this model");
      }
      if (!("m:" + name).equals(m.getName()) || !("v:" + name).equals(v.getName())) {
        throw new IOException("the optimizer state's " + name + " has no moments after it");
      }
      if (!m.getShape().equals(p.getArray().getShape())
          || !v.getShape().equals(p.getArray().getShape())) {
        throw new IOException(
            "the optimizer state's "
                + name
                + " has moments of shape "
                + m.getShape()
                + " and "
                + v.getShape()
                + ", the parameter "
                + p.getArray().getShape());
      }
      if (state.get(i).size() != 1 || state.get(i).toIntArray()[0] < 0) {
        throw new IOException("the optimizer state's step count of " + name + " is not a count");
      }
      String id = p.getId();
      steps.put(id, state.get(i).toIntArray()[0]);
      means.put(id, m);
      variances.put(id, v);
      state.get(i).close();
    }
  }

  private void clearState() {
    means.values().forEach(NDArray::close);
    variances.values().forEach(NDArray::close);
    means.clear();
    variances.clear();
    steps.clear();
  }

  /** Adam's defaults (PyTorch's): lr 1e-3, betas (0.9, 0.999), eps 1e-8. */
  public static final class Builder extends OptimizerBuilder<Builder> {
    private float learningRate = 1e-3f;
    private float beta1 = 0.9f;
    private float beta2 = 0.999f;
    private float epsilon = 1e-8f;

    private Builder() {}

    public Builder learningRate(float lr) {
      this.learningRate = lr;
      return this;
    }

    public Builder betas(float beta1, float beta2) {
      this.beta1 = beta1;
      this.beta2 = beta2;
      return this;
    }

    public Builder epsilon(float epsilon) {
      this.epsilon = epsilon;
      return this;
    }

    @Override
    protected Builder self() {
      return this;
    }

    public ResumableAdam build() {
      return new ResumableAdam(this);
    }
  }
}
