package org.robostream.transform;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.robostream.transform.ImageTransformsConfig.Entry;
import org.robostream.transform.ImageTransformsConfig.Kind;

/** What a sample's draw holds: LeRobot's subset rule, the ranges, and the same draw per seed. */
class ImageTransformsConfigTest {
  private static List<Integer> kinds(float[] ops) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < ops.length; i += FrameTransformer.OP_FLOATS) {
      out.add((int) ops[i]);
    }
    return out;
  }

  @Test
  void theDefaultsDrawThreeDistinctTransformsInListOrderWithinTheirRanges() {
    ImageTransformsConfig c = ImageTransformsConfig.lerobotDefaults();
    int[] chosen = new int[7];
    for (int s = 0; s < 2000; s++) {
      float[] ops = c.draw(new SplittableRandom(s), 256, 200);
      List<Integer> k = kinds(ops);
      assertEquals(3, k.size());
      assertTrue(k.get(0) < k.get(1) && k.get(1) < k.get(2), "list order, no repeats: " + k);
      for (int i = 0; i < ops.length; i += 4) {
        Kind kind = Kind.values()[(int) ops[i] - 1];
        chosen[(int) ops[i]]++;
        float a = ops[i + 1];
        switch (kind) {
          case BRIGHTNESS, CONTRAST -> assertTrue(a >= 0.8f && a <= 1.2f, kind + " " + a);
          case SATURATION, SHARPNESS -> assertTrue(a >= 0.5f && a <= 1.5f, kind + " " + a);
          case HUE -> assertTrue(a >= -0.05f && a <= 0.05f, "hue " + a);
          case AFFINE -> {
            assertTrue(a >= -5 && a <= 5, "degrees " + a);
            float tx = ops[i + 2] * 256;
            float ty = ops[i + 3] * 200;
            assertEquals(Math.round(tx), tx, 1e-3, "whole pixels");
            assertEquals(Math.round(ty), ty, 1e-3, "whole pixels");
            assertTrue(Math.abs(tx) <= 13 && Math.abs(ty) <= 10, tx + ", " + ty);
          }
        }
      }
    }
    for (int kind = 1; kind <= 6; kind++) {
      // Equal weights: each is in half the draws (3 of 6).
      assertEquals(1000, chosen[kind], 100, "kind " + kind + " chosen " + chosen[kind]);
    }
  }

  @Test
  void theSameGeneratorDrawsTheSameOperations() {
    ImageTransformsConfig c = ImageTransformsConfig.lerobotDefaults();
    assertArrayEquals(
        c.draw(SampleRandom.of(42, 3, 1234, 1, SampleRandom.BUILT_IN), 64, 64),
        c.draw(SampleRandom.of(42, 3, 1234, 1, SampleRandom.BUILT_IN), 64, 64));
    int differ = 0;
    for (long epoch = 0; epoch < 20; epoch++) {
      float[] a = c.draw(SampleRandom.of(42, epoch, 1234, 1, SampleRandom.BUILT_IN), 64, 64);
      float[] b = c.draw(SampleRandom.of(42, epoch + 1, 1234, 1, SampleRandom.BUILT_IN), 64, 64);
      differ += java.util.Arrays.equals(a, b) ? 0 : 1;
    }
    assertEquals(20, differ, "another epoch, another draw");
  }

  @Test
  void allOfThemApplyInOrderWhenTheMaximumCoversThemUnlessTheOrderIsRandom() {
    ImageTransformsConfig all = ImageTransformsConfig.lerobotDefaults().withMaxNumTransforms(6);
    assertEquals(List.of(1, 2, 3, 4, 5, 6), kinds(all.draw(new SplittableRandom(1), 64, 64)));
    ImageTransformsConfig shuffled = all.withRandomOrder(true);
    boolean outOfOrder = false;
    for (int s = 0; s < 50 && !outOfOrder; s++) {
      List<Integer> k = kinds(shuffled.draw(new SplittableRandom(s), 64, 64));
      assertEquals(6, k.size());
      outOfOrder = !k.equals(List.of(1, 2, 3, 4, 5, 6));
    }
    assertTrue(outOfOrder, "randomOrder applies them in the order drawn");
  }

  @Test
  void weightsDecideHowOftenATransformIsChosenAndZeroLeavesItOut() {
    ImageTransformsConfig c =
        ImageTransformsConfig.of(
            List.of(
                new Entry(Kind.BRIGHTNESS, 9, 0.9, 1.1, 0),
                new Entry(Kind.HUE, 1, -0.1, 0.1, 0),
                new Entry(Kind.CONTRAST, 0, 0.9, 1.1, 0)),
            1);
    int brightness = 0;
    for (int s = 0; s < 1000; s++) {
      List<Integer> k = kinds(c.draw(new SplittableRandom(s), 64, 64));
      assertEquals(1, k.size());
      assertTrue(k.get(0) != Kind.CONTRAST.nativeCode(), "weight 0: never");
      brightness += k.get(0) == Kind.BRIGHTNESS.nativeCode() ? 1 : 0;
    }
    assertEquals(900, brightness, 40);
  }

  @Test
  void onlyKeepsTheNamedOnesAndMistakesAreNamed() {
    ImageTransformsConfig c = ImageTransformsConfig.lerobotDefaults().only("hue", "Brightness");
    assertEquals(
        List.of(Kind.BRIGHTNESS, Kind.HUE), c.entries().stream().map(Entry::kind).toList());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ImageTransformsConfig.lerobotDefaults().only("blur"));
    assertTrue(e.getMessage().contains("no image transform blur"), e.getMessage());
    assertTrue(e.getMessage().contains("sharpness"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Entry(Kind.HUE, 1, -0.7, 0.1, 0));
    assertThrows(IllegalArgumentException.class, () -> new Entry(Kind.BRIGHTNESS, 1, 1.2, 0.8, 0));
    assertThrows(IllegalArgumentException.class, () -> new Entry(Kind.AFFINE, 1, -5, 5, 1.5));
    assertThrows(
        IllegalArgumentException.class,
        () -> ImageTransformsConfig.lerobotDefaults().withMaxNumTransforms(0));
    assertThrows(
        IllegalArgumentException.class,
        () -> ImageTransformsConfig.of(List.of(new Entry(Kind.HUE, 0, 0, 0, 0)), 1));
  }
}
