package org.robostream.torch.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.PointerScope;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.policy.CameraInput;
import org.robostream.policy.FeatureStats;
import org.robostream.policy.PolicyConfig;
import org.robostream.torch.dist.DataParallel;

/**
 * The trainer's arithmetic on fixed inputs, one rank: an exact resume, the masked loss, and
 * checkpoints that are input. Several ranks: {@link DataParallelProcessTest}.
 */
class PolicyTrainerTest {
  static final int ROWS = 8;
  static final int STEPS = 4;

  static PolicyConfig config() {
    return new PolicyConfig(
        List.of(new CameraInput("observation.images.cam", 3, 32, 32, "uint8", 1)),
        new FeatureStats(
            "observation.state", new float[] {0, 1, 2, 3}, new float[] {1, 2, 1, 0.5f}),
        new FeatureStats("action", new float[] {0, 0, 1}, new float[] {1, 1, 2}),
        2,
        8,
        32,
        1e-2f,
        5);
  }

  static Device cpu() {
    return PolicyTrainer.device("cpu");
  }

  /** Deterministic inputs for step {@code step}: rows [from, from + rows) of a 2B-row batch. */
  static PolicyInputs inputs(int step, int from, int rows) {
    SplittableRandom random = new SplittableRandom(1000 + step);
    int all = 2 * ROWS;
    byte[] frames = new byte[all * 3 * 32 * 32];
    for (int i = 0; i < frames.length; i++) {
      frames[i] = (byte) random.nextInt(256);
    }
    float[] state = new float[all * 4];
    float[] action = new float[all * 2 * 3];
    byte[] pad = new byte[all * 2];
    for (int i = 0; i < state.length; i++) {
      state[i] = (float) random.nextGaussian();
    }
    for (int i = 0; i < action.length; i++) {
      action[i] = (float) random.nextGaussian();
    }
    Tensor f = blob(new BytePointer(frames), new long[] {all, 3, 32, 32}, torch.ScalarType.Byte);
    Tensor s = blob(new FloatPointer(state), new long[] {all, 4}, torch.ScalarType.Float);
    Tensor a = blob(new FloatPointer(action), new long[] {all, 2, 3}, torch.ScalarType.Float);
    Tensor p = blob(new BytePointer(pad), new long[] {all, 2}, torch.ScalarType.Bool);
    return new PolicyInputs(
        List.of(f.narrow(0, from, rows)),
        s.narrow(0, from, rows),
        a.narrow(0, from, rows),
        p.narrow(0, from, rows));
  }

  private static Tensor blob(org.bytedeco.javacpp.Pointer data, long[] shape, torch.ScalarType t) {
    return torch.from_blob(data, shape, new TensorOptions(t)).clone();
  }

  static List<Float> train(PolicyTrainer t, int fromStep, int steps, int from, int rows) {
    List<Float> losses = new ArrayList<>();
    for (int k = fromStep; k < fromStep + steps; k++) {
      try (PointerScope scope = new PointerScope()) {
        losses.add(t.step(inputs(k, from, rows)));
      }
    }
    return losses;
  }

  @Test
  void aRestoredTrainerTakesTheSameStepsAsTheUninterruptedOne(@TempDir Path dir) throws Exception {
    List<Float> uninterrupted;
    Map<String, SafeTensors.Entry> end;
    try (PolicyTrainer t = PolicyTrainer.create(config(), cpu(), DataParallel.single())) {
      train(t, 0, STEPS, 0, 2 * ROWS);
      t.save(dir);
      uninterrupted = train(t, STEPS, STEPS, 0, 2 * ROWS);
      end = t.weights();
    }
    try (PolicyTrainer t = PolicyTrainer.restore(dir, config(), cpu(), DataParallel.single())) {
      assertEquals(STEPS, t.optimizerSteps());
      assertEquals(uninterrupted, train(t, STEPS, STEPS, 0, 2 * ROWS));
      assertSameWeights(end, t.weights(), 0);
    }
    assertTrue(uninterrupted.get(STEPS - 1) < uninterrupted.get(0), "it learns: " + uninterrupted);
  }

  static void assertSameWeights(
      Map<String, SafeTensors.Entry> a, Map<String, SafeTensors.Entry> b, double tolerance) {
    assertEquals(a.keySet(), b.keySet());
    for (String name : a.keySet()) {
      float[] x = a.get(name).values();
      float[] y = b.get(name).values();
      if (tolerance == 0) {
        assertArrayEquals(x, y, name + " differs");
      } else {
        for (int i = 0; i < x.length; i++) {
          assertEquals(x[i], y[i], tolerance, name + "[" + i + "]");
        }
      }
    }
  }

  @Test
  void aCheckpointForAnotherPolicyOrWithBrokenFilesIsRefusedNamingTheFile(@TempDir Path dir)
      throws Exception {
    try (PolicyTrainer t = PolicyTrainer.create(config(), cpu(), DataParallel.single())) {
      train(t, 0, 1, 0, ROWS);
      t.save(dir);
    }
    PolicyConfig other =
        new PolicyConfig(
            config().cameras(), config().stateStats(), config().actionStats(), 3, 8, 32, 1e-2f, 5);
    IOException e =
        assertThrows(
            IOException.class,
            () -> PolicyTrainer.restore(dir, other, cpu(), DataParallel.single()));
    assertTrue(e.getMessage().contains("describes another policy"), e.getMessage());

    Path weights = dir.resolve(PolicyTrainer.WEIGHTS_FILE);
    byte[] good = Files.readAllBytes(weights);
    Files.write(weights, java.util.Arrays.copyOf(good, good.length - 3));
    e =
        assertThrows(
            IOException.class,
            () -> PolicyTrainer.restore(dir, config(), cpu(), DataParallel.single()));
    assertTrue(e.getMessage().contains(weights.toString()), e.getMessage());

    Files.write(weights, good);
    Path optimizer = dir.resolve(PolicyTrainer.OPTIMIZER_FILE);
    Files.write(optimizer, good); // weights where the moments belong: no step count, other names
    e =
        assertThrows(
            IOException.class,
            () -> PolicyTrainer.restore(dir, config(), cpu(), DataParallel.single()));
    assertTrue(e.getMessage().contains(optimizer.toString()), e.getMessage());
  }

  /**
   * Values no training writes, in files that are otherwise well formed: a negative second moment
   * (every later weight NaN), a NaN moment or weight. Refused at restore naming the file and the
   * tensor; never saved.
   */
  @Test
  void momentsAndWeightsNoTrainingWritesAreRefusedAtRestore(@TempDir Path dir) throws Exception {
    try (PolicyTrainer t = PolicyTrainer.create(config(), cpu(), DataParallel.single())) {
      train(t, 0, 1, 0, ROWS);
      t.save(dir);
    }
    Path optimizer = dir.resolve(PolicyTrainer.OPTIMIZER_FILE);
    Path weights = dir.resolve(PolicyTrainer.WEIGHTS_FILE);
    SafeTensors.Contents moments = SafeTensors.read(optimizer, 1L << 30);
    SafeTensors.Contents saved = SafeTensors.read(weights, 1L << 30);
    String second =
        moments.tensors().keySet().stream()
            .filter(k -> k.startsWith("exp_avg_sq."))
            .findFirst()
            .orElseThrow();
    String first =
        moments.tensors().keySet().stream()
            .filter(k -> k.startsWith("exp_avg."))
            .findFirst()
            .orElseThrow();
    String weight = saved.tensors().keySet().iterator().next();
    Object[][] cases = {
      {optimizer, moments, second, -1f, "is never negative"},
      {optimizer, moments, first, Float.NaN, "not finite"},
      {weights, saved, weight, Float.POSITIVE_INFINITY, "not finite"},
    };
    for (Object[] c : cases) {
      Path file = (Path) c[0];
      SafeTensors.Contents contents = (SafeTensors.Contents) c[1];
      byte[] good = Files.readAllBytes(file);
      java.util.Map<String, SafeTensors.Entry> altered =
          new java.util.LinkedHashMap<>(contents.tensors());
      SafeTensors.Entry e = altered.get((String) c[2]);
      float[] values = e.values().clone();
      values[0] = (Float) c[3];
      altered.put((String) c[2], new SafeTensors.Entry(e.shape(), values));
      SafeTensors.write(file, altered, contents.metadata());
      IOException refused =
          assertThrows(
              IOException.class,
              () -> PolicyTrainer.restore(dir, config(), cpu(), DataParallel.single()));
      assertTrue(refused.getMessage().contains(file.toString()), refused.getMessage());
      assertTrue(refused.getMessage().contains(c[2] + " holds"), refused.getMessage());
      assertTrue(refused.getMessage().contains((String) c[4]), refused.getMessage());
      Files.write(file, good);
    }
    try (PolicyTrainer t = PolicyTrainer.restore(dir, config(), cpu(), DataParallel.single())) {
      assertTrue(t.optimizerSteps() > 0, "the files put back restore");
    }
  }

  @Test
  void maskedPositionsDoNotCount() {
    cpu();
    try (PointerScope scope = new PointerScope()) {
      Tensor prediction = torch.zeros(1, 2, 3);
      float[] t = {1, 1, 1, 9, 9, 9};
      Tensor target =
          torch.from_blob(
              new FloatPointer(t), new long[] {1, 2, 3}, new TensorOptions(torch.ScalarType.Float));
      Tensor pad =
          torch.from_blob(
              new BytePointer(new byte[] {0, 1}),
              new long[] {1, 2},
              new TensorOptions(torch.ScalarType.Bool));
      assertEquals(1f, PolicyTrainer.maskedL1(prediction, target, pad).item_float());
      assertEquals(5f, PolicyTrainer.maskedL1(prediction, target, null).item_float());
    }
  }
}
