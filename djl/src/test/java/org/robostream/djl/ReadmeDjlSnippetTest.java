package org.robostream.djl;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.Model;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.EasyTrain;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Dataset;
import ai.djl.training.listener.TrainingListener;
import ai.djl.training.optimizer.Optimizer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.robostream.djl.policy.MaskedL1Loss;
import org.robostream.djl.policy.VisuomotorPolicy;
import org.robostream.policy.PolicyConfig;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.transform.ImageTransformsConfig;

/**
 * The README's DJL training loop, compiled and run here (ReadmeMatchesSnippetsTest checks the
 * README shows it as it is): DJL's own EasyTrain over robostream batches, with LeRobot's image
 * transforms, on the learnable dataset; its training loss falls.
 */
class ReadmeDjlSnippetTest {
  @Test
  void theReadmesDjlTrainingLoopTrains() throws Exception {
    Path root = Datasets.learnable(0);
    float oneEpoch = train(root, 1);
    float fourEpochs = train(root, 4);
    assertTrue(
        Float.isFinite(oneEpoch) && fourEpochs < oneEpoch / 2,
        "the last epoch's loss falls: 1 epoch " + oneEpoch + ", 4 epochs " + fourEpochs);
  }

  /** The README's loop: {@code epochs} passes; the last epoch's training loss. */
  static float train(Path root, int epochs) throws Exception {
    // spotless:off (README.md shows this block as it is)
    // README djl: begin
    try (StreamingDataset stream = StreamingDataset.builder(root).batchSize(16).workers(2)
            .returnUint8(true).deltaTimestamps(Map.of("action", new double[] {0, 0.05}))
            .imageTransforms(ImageTransformsConfig.lerobotDefaults())  // LeRobot's augmentations
            .build();
        Model model = Model.newInstance("policy")) {
      VisuomotorPolicy policy = new VisuomotorPolicy(PolicyConfig.forDataset(stream, 2, 1e-3f, 42));
      model.setBlock(policy);                                  // conv encoder per camera + MLP
      Dataset data = StreamingDjlDataset.over(stream).build(); // cameras, state -> action, pad
      try (Trainer trainer = model.newTrainer(new DefaultTrainingConfig(new MaskedL1Loss())
              .optOptimizer(Optimizer.adam().build())
              .addTrainingListeners(TrainingListener.Defaults.basic()))) {
        trainer.initialize(policy.inputShapes(16));
        EasyTrain.fit(trainer, epochs, data, null);            // an epoch: one pass of the stream
        return trainer.getTrainingResult().getTrainLoss();
      }
    }
    // README djl: end
    // spotless:on
  }
}
