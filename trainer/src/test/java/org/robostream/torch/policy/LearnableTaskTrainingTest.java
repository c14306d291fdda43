package org.robostream.torch.policy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.robostream.policy.PolicyConfig;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.torch.dist.DataParallel;

/**
 * The policy learns the learnable task (the action is where the disc is): the loss falls at least
 * 5x in 300 steps; trained the same way on a copy whose actions are 5 frames later than their
 * frames, it ends measurably worse. So a loader delivering another frame than the row's would fail
 * the first assertion's margin or the second.
 */
class LearnableTaskTrainingTest {
  private static final int STEPS = 300;

  @Test
  void theLossFallsFiveTimesAndAMisalignedDatasetLearnsWorse() throws Exception {
    List<Float> aligned = train(Datasets.learnable(0));
    List<Float> shifted = train(Datasets.learnable(5));
    float first = aligned.get(0);
    double alignedEnd = tailMean(aligned);
    double shiftedEnd = tailMean(shifted);
    System.out.printf(
        "learnable task: loss %.4f -> %.4f (aligned), %.4f -> %.4f (actions 5 frames late)%n",
        first, alignedEnd, shifted.get(0), shiftedEnd);
    assertTrue(
        alignedEnd <= first / 5, "the loss falls at least 5x: " + first + " -> " + alignedEnd);
    assertTrue(
        shiftedEnd >= 1.5 * alignedEnd,
        "misaligned actions learn measurably worse: " + shiftedEnd + " vs " + alignedEnd);
  }

  private static double tailMean(List<Float> losses) {
    return losses.subList(losses.size() - 30, losses.size()).stream()
        .mapToDouble(Float::doubleValue)
        .average()
        .orElseThrow();
  }

  static List<Float> train(Path root) throws Exception {
    List<Float> losses = new ArrayList<>();
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .batchSize(32)
            .workers(2)
            .bufferSize(200)
            .seed(7)
            .returnUint8(true)
            .deltaTimestamps(Map.of("action", new double[] {0, 0.05}))
            .build()) {
      try (PolicyTrainer trainer =
          PolicyTrainer.create(
              PolicyConfig.forDataset(ds, 2, 1e-3f, 11),
              PolicyTrainer.device("cpu"),
              DataParallel.single())) {
        while (losses.size() < STEPS) {
          for (Batch b : ds) {
            try (b) {
              losses.add(trainer.step(b));
            }
            if (losses.size() == STEPS) {
              break;
            }
          }
        }
      }
    }
    return losses;
  }
}
