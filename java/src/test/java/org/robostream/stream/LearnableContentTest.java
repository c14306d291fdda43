package org.robostream.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.robostream.dataset.synth.LearnableTask;
import org.robostream.testing.Datasets;
import org.robostream.video.FrameLayout;

/**
 * The learnable content ({@code make-dataset --content learnable}) as the loader delivers it: in
 * every sample of every camera the bright disc sits where {@link LearnableTask#position} says for
 * that row's frame, and the row's action is that position (aligned) or the position 5 frames later
 * (the misaligned copy). So the training tests that rely on it learn from what the frames show.
 */
class LearnableContentTest {
  /** Pixels of the disc's centroid from where the task painted it (AV1 blurs the edge a little). */
  private static final double CENTRE_TOLERANCE_PX = 0.75;

  @Test
  void theDiscIsWhereTheRowsActionSaysAligned() throws Exception {
    checkEpoch(Datasets.learnable(0), 0);
  }

  @Test
  void theMisalignedCopysActionIsThePositionFiveFramesLater() throws Exception {
    checkEpoch(Datasets.learnable(5), 5);
  }

  private static void checkEpoch(Path root, int shift) throws Exception {
    int samples = 0;
    double worst = 0;
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .batchSize(32)
            .workers(2)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .build()) {
      int length = ds.metadata().episodes().get(0).length();
      for (Batch b : ds) {
        try (b) {
          long[] episodes = b.longs("episode_index");
          long[] frames = b.longs("frame_index");
          double[] actions = b.doubles("action");
          int dim = actions.length / b.size();
          for (String camera : ds.metadata().info().videoKeys()) {
            Batch.Frames f = b.frames(camera);
            int h = f.shape()[1];
            int w = f.shape()[2];
            for (int i = 0; i < b.size(); i++) {
              int episode = (int) episodes[i];
              int frame = (int) frames[i];
              double[] shown = LearnableTask.position(episode, frame);
              double[] centroid = discCentroid(f.sample(i), w, h);
              double dx = Math.abs(centroid[0] - shown[0] * w);
              double dy = Math.abs(centroid[1] - shown[1] * h);
              worst = Math.max(worst, Math.max(dx, dy));
              assertTrue(
                  dx <= CENTRE_TOLERANCE_PX && dy <= CENTRE_TOLERANCE_PX,
                  camera
                      + " episode "
                      + episode
                      + " frame "
                      + frame
                      + ": disc at "
                      + centroid[0]
                      + ","
                      + centroid[1]
                      + ", painted at "
                      + shown[0] * w
                      + ","
                      + shown[1] * h);
              double[] target =
                  LearnableTask.position(episode, Math.min(frame + shift, length - 1));
              for (int j = 0; j < dim; j++) {
                assertEquals(
                    target[j % 2] * (1 + j / 8.0),
                    actions[i * dim + j],
                    1e-6,
                    "episode " + episode + " frame " + frame + " action " + j);
              }
            }
          }
          samples += b.size();
        }
      }
    }
    assertEquals(Datasets.totalFrames(root), samples, "every sample checked");
    assertTrue(worst > 0, "centroids measured, not echoed: worst error " + worst);
  }

  /** Centre of the bright pixels (green above the background's plus a margin), HWC RGB bytes. */
  private static double[] discCentroid(ByteBuffer rgb, int w, int h) {
    double sx = 0;
    double sy = 0;
    double total = 0;
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        int g = rgb.get((y * w + x) * 3 + 1) & 0xff;
        // Background is 24..40, the disc 220: weight the edge by how far it is towards the disc.
        double weight = Math.max(0, Math.min(1, (g - 40) / 180.0));
        sx += weight * (x + 0.5);
        sy += weight * (y + 0.5);
        total += weight;
      }
    }
    assertTrue(total > 20, "a disc is visible: " + total);
    return new double[] {sx / total, sy / total};
  }
}
