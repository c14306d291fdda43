package org.robostream.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.robostream.dataset.synth.SyntheticDatasetSpec;
import org.robostream.dataset.synth.SyntheticDatasetWriter;
import org.robostream.dataset.synth.VideoCodecChoice;

/**
 * The built-in benchmark dataset, generated once into the user's cache
 * ({@code $ROBOSTREAM_SAMPLES}, else {@code ~/.cache/robostream/samples}): LeRobot v3.0, 3
 * cameras 256x256 at 20 fps, AV1 keyframe every 2 frames, camera-like content, episode lengths
 * ±20%. A marker file written last says a generation completed. Stateless.
 */
public final class DefaultDataset {
  private DefaultDataset() {}

  public static Path ensure(int episodes, int framesPerEpisode) throws IOException {
    Path base = Path.of(System.getenv().getOrDefault("ROBOSTREAM_SAMPLES",
        System.getProperty("user.home") + "/.cache/robostream/samples"));
    Path dir = base.resolve("camera-3x256-e" + episodes + "-f" + framesPerEpisode);
    Path marker = base.resolve(dir.getFileName() + ".complete");
    if (Files.exists(marker)) {
      return dir;
    }
    if (Files.exists(dir)) {
      try (var walk = Files.walk(dir)) {
        for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    System.err.printf("generating the default dataset in %s (once)...%n", dir);
    SyntheticDatasetWriter.write(new SyntheticDatasetSpec(dir, episodes, framesPerEpisode, 0.2,
        3, 256, 256, 20, VideoCodecChoice.AV1, 2, -1, SyntheticDatasetSpec.Layout.V30, 100, 200,
        SyntheticDatasetSpec.Content.CAMERA, 6, 3));
    Files.writeString(marker, "ok");
    return dir;
  }
}
