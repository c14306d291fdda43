package org.robostream.torch.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.PointerScope;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch;
import org.robostream.FileException;
import org.robostream.policy.FeatureStats;
import org.robostream.policy.PolicyConfig;
import org.robostream.stream.Batch;
import org.robostream.torch.TorchNatives;
import org.robostream.torch.dist.DataParallel;

/**
 * Trains a {@link VisuomotorPolicy} on robostream batches: state and action normalised by the
 * dataset's mean and std (LeRobot's MEAN_STD), masked L1 loss over the action chunk, gradients
 * averaged over a {@link DataParallel} group, an {@link Adam} step. All ranks start from rank 0's
 * state, so replicas stay byte-identical.
 *
 * <p>{@link #save} writes {@code policy.json}, {@code model.safetensors} and {@code
 * optimizer.safetensors}; {@link #restore} continues exactly on the same device and world size.
 *
 * <p>Owns the policy, optimizer and normalisation constants ({@link #close}); the group stays the
 * caller's. One training thread; every training call is a collective all ranks make in order.
 */
public final class PolicyTrainer implements AutoCloseable {
  public static final String CONFIG_FILE = "policy.json";
  public static final String WEIGHTS_FILE = "model.safetensors";
  public static final String OPTIMIZER_FILE = "optimizer.safetensors";

  /** Room for a safetensors header beyond the values themselves. */
  private static final long HEADER_ALLOWANCE = 1L << 20;

  private final PolicyConfig config;
  private final Device device;
  private final DataParallel group;
  private final VisuomotorPolicy policy;
  private final Adam adam;
  private final Tensor stateMean;
  private final Tensor stateScale;
  private final Tensor actionMean;
  private final Tensor actionScale;

  private PolicyTrainer(PolicyConfig config, Device device, DataParallel group) {
    this.config = config;
    this.device = device;
    this.group = group;
    this.policy = VisuomotorPolicy.initial(config, device);
    this.adam = new Adam(policy.parameters(), config.learningRate());
    FeatureStats state = config.stateStats();
    stateMean = state == null ? null : constant(state.mean());
    stateScale = state == null ? null : constant(scale(state));
    actionMean = constant(config.actionStats().mean());
    actionScale = constant(scale(config.actionStats()));
  }

  private Tensor constant(float[] values) {
    return Tensors.of(new long[] {values.length}, values, device, false);
  }

  /** 1 / (std + eps), LeRobot's MEAN_STD normalisation as a product. */
  private static float[] scale(FeatureStats stats) {
    float[] std = stats.std();
    float[] out = new float[std.length];
    for (int i = 0; i < std.length; i++) {
      out[i] = 1f / (std[i] + FeatureStats.EPSILON);
    }
    return out;
  }

  /**
   * The device a {@code --model-device} value names: {@code cpu}, {@code cuda}, {@code cuda:N}
   * ({@code gpu[:N]} too), or {@code auto} (a GPU when libtorch has CUDA natives and sees one, else
   * the CPU), for a process alone on its node.
   *
   * @throws IllegalArgumentException for another name, or a GPU libtorch cannot use
   */
  public static Device device(String name) {
    return device(name, 0);
  }

  /**
   * As {@link #device(String)}, for the rank that is {@code localRank} on its node: {@code cuda}
   * and {@code auto} without an index take GPU {@code localRank} (modulo the GPUs seen), one GPU
   * per rank as torchrun and {@code srun --gpus-per-task} lay them out.
   */
  public static Device device(String name, int localRank) {
    String n = name.strip().toLowerCase(java.util.Locale.ROOT).replace("gpu", "cuda");
    if (!n.matches("auto|cpu|cuda(:\\d{1,2})?")) {
      throw new IllegalArgumentException(
          "--model-device must be cpu, cuda, cuda:N (gpu, gpu:N) or auto, not " + name);
    }
    TorchNatives.load();
    boolean cuda = TorchNatives.cudaAvailable();
    long count = cuda ? torch.cuda_device_count() : 0;
    if (n.equals("auto")) {
      return new Device(cuda ? "cuda:" + localRank % count : "cpu");
    }
    if (n.startsWith("cuda")) {
      int index =
          n.contains(":")
              ? Integer.parseInt(n.substring(5))
              : (int) (localRank % Math.max(1, count));
      if (index >= count) {
        throw new IllegalArgumentException(
            "--model-device "
                + name
                + ": libtorch "
                + (cuda
                    ? "sees " + count + " GPU(s)"
                    : "has no CUDA (the build ships the CPU natives; see docs/CLI.md, train, for GPUs)"));
      }
      return new Device("cuda:" + index);
    }
    return new Device("cpu");
  }

  /**
   * A new policy with initial weights from {@code config}'s seed, on {@code device}: rank 0's
   * weights on every rank of {@code group} (a collective).
   */
  public static PolicyTrainer create(PolicyConfig config, Device device, DataParallel group) {
    TorchNatives.load();
    PolicyTrainer t = new PolicyTrainer(config, device, group);
    try {
      t.synchronise();
      return t;
    } catch (RuntimeException e) {
      t.close();
      throw e;
    }
  }

  /**
   * The policy and optimizer saved in {@code dir} by {@link #save}, on {@code device}; then rank
   * 0's on every rank of {@code group} (a collective: the ranks of an elastic resume that read
   * another rank's replica, or none, hold the same state as rank 0).
   *
   * @param expected the configuration this run would create; the saved one must equal it (another
   *     dataset, camera size, chunk length or learning rate is refused, naming both)
   * @throws IOException naming the file and what is wrong with it
   */
  public static PolicyTrainer restore(
      Path dir, PolicyConfig expected, Device device, DataParallel group) throws IOException {
    TorchNatives.load();
    PolicyConfig saved = PolicyConfig.load(dir.resolve(CONFIG_FILE));
    if (!saved.equals(expected)) {
      throw new IOException(
          dir.resolve(CONFIG_FILE)
              + " describes another policy than this run trains: saved "
              + saved
              + ", this run "
              + expected);
    }
    PolicyTrainer t = new PolicyTrainer(saved, device, group);
    try {
      t.loadWeights(dir.resolve(WEIGHTS_FILE));
      t.loadOptimizer(dir.resolve(OPTIMIZER_FILE));
      t.synchronise();
      return t;
    } catch (IOException | RuntimeException e) {
      t.close();
      throw e;
    }
  }

  /** Rank 0's parameters, moments and step count on every rank. */
  private void synchronise() {
    if (group.world() == 1) {
      return;
    }
    try (PointerScope scope = new PointerScope()) {
      List<Tensor> state = new ArrayList<>();
      for (Tensor p : policy.parameterList()) {
        state.add(p.detach());
      }
      state.addAll(adam.moments());
      group.broadcastFromRankZero(state);
      adam.steps(group.broadcastLong(adam.steps()));
    }
  }

  public PolicyConfig config() {
    return config;
  }

  public Device device() {
    return device;
  }

  /** The policy being trained (its parameters are live: read them, do not change them). */
  public VisuomotorPolicy policy() {
    return policy;
  }

  /** Optimizer steps this policy has taken, restored ones included (Adam's t). */
  public long optimizerSteps() {
    return adam.steps();
  }

  /**
   * One training step on {@code batch} (see {@link #step(PolicyInputs)}); the batch is read, not
   * closed.
   */
  public float step(Batch batch) {
    try (PointerScope scope = new PointerScope()) {
      return step(PolicyInputs.of(batch, config, device));
    }
  }

  /**
   * One training step: forward, the masked L1 loss, backward, gradients averaged over the ranks
   * that trained at this step, Adam. Returns this rank's loss (before the update).
   *
   * @throws IllegalArgumentException when an input has another shape than the configuration
   * @throws IllegalStateException on every rank at the same step when the loss of any rank, or the
   *     averaged gradients, are not finite (nothing is applied: the weights stay the last step's)
   */
  public float step(PolicyInputs inputs) {
    try (PointerScope scope = new PointerScope()) {
      clearGradients();
      Tensor state = stateMean == null ? null : normalise(inputs.state(), stateMean, stateScale);
      Tensor prediction = policy.forward(inputs.frames(), state);
      Tensor target = normalise(inputs.action(), actionMean, actionScale);
      Tensor loss = maskedL1(prediction, target, inputs.actionIsPad());
      float value = loss.item_float();
      boolean finite = Float.isFinite(value);
      List<Tensor> gradients;
      if (finite) {
        loss.backward();
        gradients = new ArrayList<>();
        for (Tensor p : policy.parameterList()) {
          gradients.add(p.grad());
        }
      } else {
        // The other ranks still wait in this step's all-reduce: take part with nothing to add,
        // and let every rank learn of the failure from it.
        gradients = zeros();
      }
      apply(gradients, group.averageGradients(gradients, finite ? 1f : 0f, !finite), value);
      return value;
    }
  }

  /**
   * This rank's part of a step at which it has no batch to train on (a padding batch, which keeps
   * ranks in lockstep at the end of an epoch): it joins the all-reduce with weight 0 and applies
   * the others' averaged update, so its replica stays identical. Alone, or when no rank trained,
   * nothing changes.
   */
  public void stepWithoutBatch() {
    try (PointerScope scope = new PointerScope()) {
      List<Tensor> gradients = zeros();
      apply(gradients, group.averageGradients(gradients, 0f, false), null);
    }
  }

  /** Adam on the averaged gradients, unless a rank failed or they are not finite (every rank). */
  private void apply(List<Tensor> gradients, DataParallel.Averaged averaged, Float ownLoss) {
    if (averaged.failedRanks() > 0) {
      throw new IllegalStateException(
          "the loss is not finite at optimizer step "
              + (adam.steps() + 1)
              + " on "
              + averaged.failedRanks()
              + " of "
              + group.world()
              + " rank(s)"
              + (ownLoss == null ? "" : " (this rank's: " + ownLoss + ")")
              + ": training diverged; nothing was applied, the last checkpoint holds the weights"
              + " before it");
    }
    List<String> names = new ArrayList<>(policy.parameters().keySet());
    for (int i = 0; i < gradients.size(); i++) {
      // A finite loss can still give gradients that are not: they would poison Adam's moments.
      if (!torch.isfinite(gradients.get(i)).all().item_bool()) {
        throw new IllegalStateException(
            "the gradient of "
                + names.get(i)
                + " is not finite at optimizer step "
                + (adam.steps() + 1)
                + ": training diverged; nothing was applied");
      }
    }
    if (averaged.trained() > 0) {
      adam.step(gradients);
    }
  }

  private List<Tensor> zeros() {
    List<Tensor> out = new ArrayList<>();
    for (Tensor p : policy.parameterList()) {
      out.add(torch.zeros_like(p.detach()));
    }
    return out;
  }

  private void clearGradients() {
    for (Tensor p : policy.parameterList()) {
      Tensor g = p.grad();
      if (g.defined()) {
        g.zero_();
      }
    }
  }

  private static Tensor normalise(Tensor x, Tensor mean, Tensor scale) {
    return x.to(torch.ScalarType.Float).sub(mean).mul(scale);
  }

  /**
   * The mean absolute error over the chunk's positions that are not padding (every dimension of
   * each), 0 when every position is; ACT-style policies train on it.
   */
  static Tensor maskedL1(Tensor prediction, Tensor target, Tensor isPad) {
    Tensor error = prediction.sub(target).abs();
    if (isPad == null) {
      return error.mean();
    }
    Tensor valid = isPad.logical_not().to(torch.ScalarType.Float);
    Tensor kept = error.mul(valid.unsqueeze(2)).sum();
    Tensor count = valid.sum().mul(new Scalar((double) target.size(2))).clamp_min(new Scalar(1.0));
    return kept.div(count);
  }

  /** The policy's prediction for {@code inputs} (normalised action units), without training. */
  public float[] predict(PolicyInputs inputs) {
    try (PointerScope scope = new PointerScope();
        org.bytedeco.pytorch.NoGradGuard noGrad = new org.bytedeco.pytorch.NoGradGuard()) {
      Tensor state = stateMean == null ? null : normalise(inputs.state(), stateMean, stateScale);
      return Tensors.values(policy.forward(inputs.frames(), state));
    }
  }

  /** The weights, by parameter name, read back to the heap. */
  public Map<String, SafeTensors.Entry> weights() {
    Map<String, SafeTensors.Entry> out = new LinkedHashMap<>();
    try (PointerScope scope = new PointerScope()) {
      for (Map.Entry<String, Tensor> p : policy.parameters().entrySet()) {
        out.put(
            p.getKey(),
            new SafeTensors.Entry(Tensors.shape(p.getValue()), Tensors.values(p.getValue())));
      }
    }
    return out;
  }

  /**
   * Writes the checkpoint's policy part into {@code dir} (created if needed): configuration,
   * weights and optimizer state. Files are written into a temporary folder and moved into place, so
   * a crash leaves the previous ones or the new ones, never half a file.
   */
  public void save(Path dir) throws IOException {
    write(dir, true);
  }

  /**
   * Writes the policy as a model into {@code dir}: {@code policy.json} and {@code
   * model.safetensors}, without the optimizer ({@code safetensors.torch.load_file} reads the
   * weights in Python).
   */
  public void saveModel(Path dir) throws IOException {
    write(dir, false);
  }

  private void write(Path dir, boolean withOptimizer) throws IOException {
    Map<String, SafeTensors.Entry> weights = weights();
    for (Map.Entry<String, SafeTensors.Entry> w : weights.entrySet()) {
      // Steps refuse non-finite updates, so only altered moments or weights could get here.
      String why = Adam.notFinite(w.getValue(), w.getKey(), false);
      if (why != null) {
        throw new IOException("not saving the policy to " + dir + ": " + why);
      }
    }
    Files.createDirectories(dir);
    Path tmp = Files.createTempDirectory(dir, ".policy-");
    try {
      config.save(tmp.resolve(CONFIG_FILE));
      SafeTensors.write(
          tmp.resolve(WEIGHTS_FILE), weights, Map.of("format", "pt", "producer", "robostream"));
      List<String> names = new ArrayList<>(List.of(WEIGHTS_FILE, CONFIG_FILE));
      if (withOptimizer) {
        Map<String, SafeTensors.Entry> moments;
        try (PointerScope scope = new PointerScope()) {
          moments = adam.state();
        }
        SafeTensors.write(
            tmp.resolve(OPTIMIZER_FILE),
            moments,
            Map.of("step", Long.toString(adam.steps()), "optimizer", "adam"));
        names.add(0, OPTIMIZER_FILE);
      }
      for (String name : names) {
        Files.move(
            tmp.resolve(name),
            dir.resolve(name),
            StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      try (var left = Files.list(tmp)) {
        for (Iterator<Path> it = left.iterator(); it.hasNext(); ) {
          Files.deleteIfExists(it.next());
        }
      }
      Files.deleteIfExists(tmp);
    }
  }

  /** The bytes a file of {@code shapes}' values may take (values and a header). */
  private static long bound(Map<String, long[]> shapes, int copies) {
    long values = 0;
    for (long[] s : shapes.values()) {
      values += 4 * Tensors.count(s);
    }
    return copies * values + HEADER_ALLOWANCE;
  }

  private void loadWeights(Path file) throws IOException {
    Map<String, long[]> shapes = VisuomotorPolicy.shapes(config);
    Map<String, SafeTensors.Entry> saved;
    try {
      saved = SafeTensors.read(file, bound(shapes, 1)).tensors();
    } catch (FileException e) {
      throw new IOException(file + " is not a policy's weights: " + e.getMessage(), e);
    }
    if (!new HashSet<>(saved.keySet()).equals(shapes.keySet())) {
      throw new IOException(
          file + " holds the parameters " + saved.keySet() + ", not " + shapes.keySet());
    }
    try (PointerScope scope = new PointerScope()) {
      for (Map.Entry<String, SafeTensors.Entry> w : saved.entrySet()) {
        Adam.finite(w.getValue(), w.getKey(), false);
      }
      for (Map.Entry<String, Tensor> p : policy.parameters().entrySet()) {
        Adam.copy(saved.get(p.getKey()), p.getValue(), p.getKey());
      }
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  private void loadOptimizer(Path file) throws IOException {
    SafeTensors.Contents saved;
    try {
      saved = SafeTensors.read(file, bound(VisuomotorPolicy.shapes(config), 2));
    } catch (FileException e) {
      throw new IOException(file + " is not an optimizer state: " + e.getMessage(), e);
    }
    String step = saved.metadata().get("step");
    if (step == null || !step.matches("\\d{1,12}")) {
      throw new IOException(file + " has no step count (metadata \"step\"): " + step);
    }
    try (PointerScope scope = new PointerScope()) {
      adam.load(saved.tensors(), Long.parseLong(step));
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    adam.close();
    policy.close();
    for (Tensor t : new Tensor[] {stateMean, stateScale, actionMean, actionScale}) {
      if (t != null) {
        t.close();
      }
    }
  }
}
