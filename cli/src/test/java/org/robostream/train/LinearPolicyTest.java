package org.robostream.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The training example's policy learns a linear target and resumes from a save exactly. */
class LinearPolicyTest {
  @TempDir Path tmp;

  static final int STATE = 3;
  static final int ACTION = 2;
  static final int N = 16;

  /** Batch {@code b}: states in [-50, 50] (unnormalised, as robot states are), a = W s + c. */
  static double[][] batch(long b) {
    SplittableRandom random = new SplittableRandom(b);
    double[] states = new double[N * STATE];
    double[] actions = new double[N * ACTION];
    double[][] w = {{0.5, -1, 0.25}, {2, 0, -0.5}};
    double[] c = {3, -2};
    for (int i = 0; i < N; i++) {
      for (int s = 0; s < STATE; s++) {
        states[i * STATE + s] = random.nextDouble(-50, 50);
      }
      for (int a = 0; a < ACTION; a++) {
        double v = c[a];
        for (int s = 0; s < STATE; s++) {
          v += w[a][s] * states[i * STATE + s];
        }
        actions[i * ACTION + a] = v;
      }
    }
    return new double[][] {states, actions};
  }

  static double step(LinearPolicy p, long b) {
    double[][] batch = batch(b);
    return p.step(batch[0], batch[1], N);
  }

  @Test
  void theLossFallsOnALearnableTarget() {
    LinearPolicy p = new LinearPolicy(STATE, ACTION, 0.1);
    double first = step(p, 0);
    double[] window = new double[10];
    for (int b = 1; b <= 2000; b++) {
      window[b % 10] = step(p, b);
    }
    double last = java.util.Arrays.stream(window).average().orElseThrow();
    assertTrue(first > 0.1, "an untrained policy is wrong: " + first);
    assertTrue(last < first / 100, "loss " + first + " → " + last);
    assertTrue(
        p.inputScale() > 0 && p.inputScale() <= 1.0 / 40,
        "scale from the first batch: " + p.inputScale());
  }

  @Test
  void aSavedPolicyContinuesExactlyLikeTheOriginal() throws IOException {
    LinearPolicy original = new LinearPolicy(STATE, ACTION, 0.1);
    for (int b = 0; b < 5; b++) {
      step(original, b);
    }
    Path saved = tmp.resolve("policy.json");
    original.save(saved);
    LinearPolicy resumed = new LinearPolicy(STATE, ACTION, 0.1);
    resumed.load(saved);
    assertEquals(original.inputScale(), resumed.inputScale());
    double[] a = new double[20];
    double[] b = new double[20];
    for (int i = 0; i < 20; i++) {
      a[i] = step(original, 5 + i);
      b[i] = step(resumed, 5 + i);
    }
    assertArrayEquals(a, b, "same losses, step for step");
    original.save(tmp.resolve("a.json"));
    resumed.save(tmp.resolve("b.json"));
    assertEquals(Files.readString(tmp.resolve("a.json")), Files.readString(tmp.resolve("b.json")));
  }

  @Test
  void aPolicyOfAnotherShapeOrWithoutItsScaleIsRefused() throws IOException {
    LinearPolicy p = new LinearPolicy(STATE, ACTION, 0.1);
    step(p, 0);
    Path saved = tmp.resolve("policy.json");
    p.save(saved);
    IOException shape =
        assertThrows(IOException.class, () -> new LinearPolicy(STATE + 1, ACTION, 0.1).load(saved));
    assertTrue(shape.getMessage().contains("another shape"), shape.getMessage());
    Files.writeString(saved, Files.readString(saved).replaceAll("\"input_scale\":[^,]*,", ""));
    IOException old =
        assertThrows(IOException.class, () -> new LinearPolicy(STATE, ACTION, 0.1).load(saved));
    assertTrue(old.getMessage().contains("no input_scale"), old.getMessage());
  }
}
