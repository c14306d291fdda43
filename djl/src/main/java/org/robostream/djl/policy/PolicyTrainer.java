package org.robostream.djl.policy;

import ai.djl.Device;
import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Parameter;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Batch;
import ai.djl.util.Pair;
import ai.djl.util.PairList;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;

/**
 * Trains a {@link VisuomotorPolicy} on DJL batches of a {@link
 * org.robostream.djl.StreamingDjlDataset} (data: each camera, {@code observation.state}; labels:
 * {@code action} [B, T, D] and {@code action_is_pad}): state and action normalised with the
 * dataset's mean and std, the {@link MaskedL1Loss} of the predicted chunk, a {@link ResumableAdam}
 * step. Owns the DJL model, its trainer and the optimizer state.
 *
 * <p>What a checkpoint holds ({@link #save}): {@code policy.json} (the {@link PolicyConfig}:
 * shapes, normalisation, seed), {@code policy-0000.params} (the weights, DJL's own format: {@code
 * Model.load} reads it) and {@code optimizer.ndlist} (Adam's moments and step counts). {@link
 * #restore} continues exactly where {@link #save} was called: the next steps give the same losses
 * as the uninterrupted run on the same device (no random number is drawn after the initial weights:
 * the policy has no dropout).
 *
 * <p>Threading: one training thread, as DJL's trainer.
 */
public final class PolicyTrainer implements AutoCloseable {
  public static final String CONFIG_FILE = "policy.json";
  public static final String MODEL_NAME = "policy";
  public static final String PARAMS_FILE = MODEL_NAME + "-0000.params";
  public static final String OPTIMIZER_FILE = "optimizer.ndlist";

  private final PolicyConfig config;
  private final Model model;
  private final VisuomotorPolicy policy;
  private final ResumableAdam optimizer;
  private final Trainer trainer;
  private final NDArray stateMean;
  private final NDArray stateScale;
  private final NDArray actionMean;
  private final NDArray actionScale;
  private long steps;

  private PolicyTrainer(PolicyConfig config, Device device, int rows) {
    this.config = config;
    this.policy = new VisuomotorPolicy(config);
    this.model = Model.newInstance(MODEL_NAME, device);
    boolean ok = false;
    try {
      model.setBlock(policy);
      this.optimizer = ResumableAdam.builder().learningRate(config.learningRate()).build();
      // The initial weights come from the engine's generator: seeded, they are the same each run.
      Engine.getInstance().setRandomSeed((int) config.seed());
      this.trainer =
          model.newTrainer(
              new DefaultTrainingConfig(new MaskedL1Loss())
                  .optOptimizer(optimizer)
                  .optDevices(new Device[] {device}));
      trainer.initialize(policy.inputShapes(rows));
      NDManager m = trainer.getManager();
      stateMean = config.stateStats() == null ? null : m.create(config.stateStats().mean());
      stateScale = config.stateStats() == null ? null : scale(m, config.stateStats());
      actionMean = m.create(config.actionStats().mean());
      actionScale = scale(m, config.actionStats());
      ok = true;
    } finally {
      if (!ok) {
        model.close();
      }
    }
  }

  /** 1 / (std + eps), LeRobot's MEAN_STD normalisation as a product. */
  private static NDArray scale(NDManager m, FeatureStats stats) {
    float[] std = stats.std();
    float[] out = new float[std.length];
    for (int i = 0; i < std.length; i++) {
      out[i] = 1f / (std[i] + FeatureStats.EPSILON);
    }
    return m.create(out);
  }

  /** A new policy with initial weights from {@code config}'s seed, on {@code device}. */
  public static PolicyTrainer create(PolicyConfig config, Device device) {
    return new PolicyTrainer(config, device, 1);
  }

  /**
   * The policy and optimizer saved in {@code dir} by {@link #save}, on {@code device}.
   *
   * @param expected the configuration this run would create; the saved one must equal it (another
   *     dataset, camera size, chunk length or learning rate is refused, naming both)
   */
  public static PolicyTrainer restore(Path dir, PolicyConfig expected, Device device)
      throws IOException {
    PolicyConfig saved = PolicyConfig.load(dir.resolve(CONFIG_FILE));
    if (!saved.equals(expected)) {
      throw new IOException(
          dir.resolve(CONFIG_FILE)
              + " describes another policy than this run trains: saved "
              + saved
              + ", this run "
              + expected);
    }
    PolicyTrainer t = new PolicyTrainer(saved, device, 1);
    try {
      t.loadWeights(dir);
      Path optimizer = dir.resolve(OPTIMIZER_FILE);
      try (InputStream in = new BufferedInputStream(Files.newInputStream(optimizer))) {
        t.optimizer.load(t.policy.getParameters(), in, t.model.getNDManager());
      } catch (IOException | RuntimeException e) {
        // A checkpoint's file is input: whatever it holds, the error names it.
        throw new IOException(optimizer + ": " + describe(e), e);
      }
      return t;
    } catch (IOException | RuntimeException e) {
      t.close();
      throw e;
    }
  }

  public PolicyConfig config() {
    return config;
  }

  public Model model() {
    return model;
  }

  /** Optimizer steps taken by this trainer (since it was created or restored). */
  public long steps() {
    return steps;
  }

  /**
   * One training step on {@code batch}: forward, the masked L1 loss, backward, Adam. Returns the
   * loss (before the update), read back from the device.
   *
   * @throws IllegalArgumentException when the batch lacks a column the policy reads or has another
   *     shape than its configuration
   * @throws IllegalStateException when the loss is not a finite number
   */
  public float step(Batch batch) {
    NDList inputs = inputs(batch.getData());
    NDList labels = labels(batch.getLabels());
    float loss;
    try (GradientCollector collector = trainer.newGradientCollector()) {
      NDList predictions = trainer.forward(inputs);
      NDArray value = trainer.getLoss().evaluate(labels, predictions);
      collector.backward(value);
      loss = value.getFloat();
    }
    if (!Float.isFinite(loss)) {
      throw new IllegalStateException(
          "the loss is " + loss + " at optimizer step " + (steps + 1) + ": training diverged");
    }
    trainer.step();
    steps++;
    return loss;
  }

  /** The policy's prediction for {@code data} (normalised action units), without training. */
  public NDArray predict(NDList data) {
    return trainer.evaluate(inputs(data)).singletonOrThrow();
  }

  private NDList inputs(NDList data) {
    NDList inputs = new NDList();
    for (CameraInput camera : config.cameras()) {
      NDArray frames = column(data, camera.name(), "data");
      long[] want = {frames.getShape().get(0), camera.channels(), camera.height(), camera.width()};
      requireShape(frames, want);
      inputs.add(frames);
    }
    if (stateMean != null) {
      NDArray state = column(data, config.stateStats().key(), "data");
      requireShape(state, new long[] {state.getShape().get(0), config.stateDimension()});
      inputs.add(normalise(state, stateMean, stateScale));
    }
    return inputs;
  }

  private NDList labels(NDList labels) {
    String key = config.actionStats().key();
    NDArray action = column(labels, key, "labels");
    long rows = action.getShape().get(0);
    requireShape(action, new long[] {rows, config.actionSteps(), config.actionDimension()});
    NDList out = new NDList(normalise(action, actionMean, actionScale));
    NDArray pad = labels.get(key + "_is_pad");
    if (pad != null) {
      requireShape(pad, new long[] {rows, config.actionSteps()});
      out.add(pad);
    }
    return out;
  }

  private static NDArray normalise(NDArray x, NDArray mean, NDArray scale) {
    return x.toType(DataType.FLOAT32, false).sub(mean).mul(scale);
  }

  private static NDArray column(NDList list, String name, String which) {
    NDArray a = list.get(name);
    if (a == null) {
      StringBuilder names = new StringBuilder();
      for (NDArray x : list) {
        names.append(names.length() == 0 ? "" : ", ").append(x.getName());
      }
      throw new IllegalArgumentException(
          "the batch's "
              + which
              + " have no "
              + name
              + " (the policy reads it); they are: "
              + names);
    }
    return a;
  }

  private static void requireShape(NDArray a, long[] want) {
    if (!Arrays.equals(a.getShape().getShape(), want)) {
      throw new IllegalArgumentException(
          a.getName() + " is " + a.getShape() + " but the policy takes " + new Shape(want));
    }
  }

  /**
   * Writes the checkpoint's policy part into {@code dir} (created if needed): configuration,
   * weights and optimizer state. Files are written under temporary names and moved into place, so a
   * crash leaves the previous ones or the new ones, never half a file.
   */
  public void save(Path dir) throws IOException {
    write(dir, true);
  }

  /**
   * Writes the policy as a model into {@code dir}: its configuration and weights, without the
   * optimizer ({@code Model.load(dir, "policy")} on a {@code VisuomotorPolicy} of that
   * configuration reads it).
   */
  public void saveModel(Path dir) throws IOException {
    write(dir, false);
  }

  private void write(Path dir, boolean withOptimizer) throws IOException {
    Files.createDirectories(dir);
    Path tmp = Files.createTempDirectory(dir, ".policy-");
    try {
      config.save(tmp.resolve(CONFIG_FILE));
      model.save(tmp, MODEL_NAME);
      if (withOptimizer) {
        try (OutputStream out =
            new BufferedOutputStream(Files.newOutputStream(tmp.resolve(OPTIMIZER_FILE)))) {
          optimizer.save(policy.getParameters(), out, model.getNDManager());
        }
      }
      for (String name :
          withOptimizer
              ? new String[] {PARAMS_FILE, OPTIMIZER_FILE, CONFIG_FILE}
              : new String[] {PARAMS_FILE, CONFIG_FILE}) {
        Files.move(
            tmp.resolve(name),
            dir.resolve(name),
            java.nio.file.StandardCopyOption.ATOMIC_MOVE,
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
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

  /**
   * Copies the weights {@code dir} holds ({@link #PARAMS_FILE}, read by DJL's {@code Model.load}
   * into a second policy of the same configuration) into this trainer's parameters, in place: the
   * trainer's parameter store keeps the arrays it was initialised with, so replacing them (as
   * loading into this model would) would leave training on the old ones.
   */
  private void loadWeights(Path dir) throws IOException {
    try (Model saved = Model.newInstance(MODEL_NAME, model.getNDManager().getDevice())) {
      saved.setBlock(new VisuomotorPolicy(config));
      Path file = dir.resolve(PARAMS_FILE);
      try {
        saved.load(dir, MODEL_NAME);
      } catch (MalformedModelException | IOException | RuntimeException e) {
        // DJL reads a garbage or cut file into an EOFException without a message, a
        // NullPointerException or "parameter weight has not been initialized": the error names
        // the file whatever happened.
        throw new IOException(file + " is not a policy's weights: " + describe(e), e);
      }
      PairList<String, Parameter> from = saved.getBlock().getParameters();
      PairList<String, Parameter> to = policy.getParameters();
      if (!from.keys().equals(to.keys())) {
        throw new IOException(file + " holds the parameters " + from.keys() + ", not " + to.keys());
      }
      for (int i = 0; i < to.size(); i++) {
        Pair<String, Parameter> target = to.get(i);
        NDArray value;
        try {
          value = from.get(i).getValue().getArray();
        } catch (RuntimeException notInTheFile) { // DJL took the file, but not this array from it
          throw new IOException(
              file + " is not a policy's weights: it holds no " + target.getKey(), notInTheFile);
        }
        NDArray array = target.getValue().getArray();
        if (!value.getShape().equals(array.getShape())) {
          throw new IOException(
              file
                  + ": "
                  + target.getKey()
                  + " is "
                  + value.getShape()
                  + ", not "
                  + array.getShape());
        }
        value.copyTo(array);
      }
    }
  }

  /** An exception's message, or its kind when it has none. */
  private static String describe(Exception e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  @Override
  public void close() {
    try {
      trainer.close();
    } finally {
      model.close();
    }
  }
}
