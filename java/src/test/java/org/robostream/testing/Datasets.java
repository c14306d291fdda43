package org.robostream.testing;

import java.nio.file.Path;
import org.robostream.dataset.synth.SyntheticDatasetSpec;
import org.robostream.dataset.synth.SyntheticDatasetSpec.Content;
import org.robostream.dataset.synth.SyntheticDatasetSpec.Layout;
import org.robostream.dataset.synth.VideoCodecChoice;

/** The synthetic datasets tests share (generated once per build by {@link Fixtures#dataset}). */
public final class Datasets {
  private Datasets() {}

  /**
   * v3.0 pattern dataset, 7 episodes of 20..40 frames, 2 cameras 64x64 AV1 g2, small file limits
   * so data and video files roll over (several episodes per file, several files).
   */
  public static Path patternV30() {
    return Fixtures.dataset("pattern-v30", new SyntheticDatasetSpec(Path.of("unused"), 7, 30,
        0.33, 2, 64, 64, 20, VideoCodecChoice.AV1, 2, -1, Layout.V30, 0.005, 0.012,
        Content.PATTERN, 4, 3));
  }

  /** v2.1 pattern dataset: 5 episodes of 16..24 frames, 1 camera 64x48 H.264 GOP 4. */
  public static Path patternV21() {
    return Fixtures.dataset("pattern-v21", new SyntheticDatasetSpec(Path.of("unused"), 5, 20,
        0.2, 1, 64, 48, 20, VideoCodecChoice.H264, 4, -1, Layout.V21, 100, 200,
        Content.PATTERN, 3, 2));
  }

  /** No cameras, one 300-frame episode at 30 fps: long table windows (SARM horizon). */
  public static Path longEpisode() {
    return Fixtures.dataset("long-episode", new SyntheticDatasetSpec(Path.of("unused"), 2, 300,
        0.0, 0, 64, 64, 30, VideoCodecChoice.AV1, 2, -1, Layout.V30, 100, 200,
        Content.PATTERN, 2, 1));
  }

  /** Frames of every episode of the dataset at {@code root}. */
  public static int totalFrames(Path root) {
    return org.robostream.dataset.LeRobotMetadata.open(root, java.util.Optional.empty())
        .episodes().stream().mapToInt(org.robostream.dataset.EpisodeInfo::length).sum();
  }
}
