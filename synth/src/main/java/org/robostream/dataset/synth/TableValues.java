package org.robostream.dataset.synth;

/**
 * Where a generated dataset's {@code action} and {@code observation.state} values come from: the
 * closed forms of {@link SyntheticValues} (each row says which episode and frame it is: the pattern
 * content, whose tests check every row), the red ball's centre in each camera for the camera
 * content (action j is x or y of camera (j / 2) mod cameras; the state stays index-coded), or the
 * {@link LearnableTask}'s disc positions for {@code --content learnable}. Stateless.
 */
interface TableValues {
  float action(int episode, int frame, int j);

  float state(int episode, int frame, int j);

  static TableValues of(SyntheticDatasetSpec spec) {
    if (spec.content() == SyntheticDatasetSpec.Content.LEARNABLE) {
      LearnableTask task = new LearnableTask(spec);
      return new TableValues() {
        @Override
        public float action(int episode, int frame, int j) {
          return task.action(episode, frame, j);
        }

        @Override
        public float state(int episode, int frame, int j) {
          return task.state(episode, frame, j);
        }
      };
    }
    if (spec.content() == SyntheticDatasetSpec.Content.CAMERA && spec.cameras() > 0) {
      int cameras = spec.cameras();
      return new TableValues() {
        @Override
        public float action(int episode, int frame, int j) {
          return (float) CameraContent.ballCentre(episode, frame, (j / 2) % cameras)[j % 2];
        }

        @Override
        public float state(int episode, int frame, int j) {
          return SyntheticValues.state(episode, frame, j);
        }
      };
    }
    return new TableValues() {
      @Override
      public float action(int episode, int frame, int j) {
        return SyntheticValues.action(episode, frame, j);
      }

      @Override
      public float state(int episode, int frame, int j) {
        return SyntheticValues.state(episode, frame, j);
      }
    };
  }
}
