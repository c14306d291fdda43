package org.robostream.policy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.robostream.dataset.Feature;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.stream.StreamingDataset;

/**
 * Everything that fixes a visuomotor policy's shape (robostream-torch's {@code
 * org.robostream.torch.policy.VisuomotorPolicy}, robostream-djl's DJL block of the same design) and
 * its normalisation: the cameras it sees (in input order), the state it reads (none when {@code
 * stateStats} is null), the action chunk it predicts ({@code actionSteps} x the action's
 * dimension), the widths of its layers, its learning rate and the seed of its initial weights.
 * Saved next to the weights ({@code policy.json}), so a checkpoint says what it holds and a resume
 * with another dataset or other flags is refused instead of loading weights into the wrong shape.
 * Immutable.
 */
public record PolicyConfig(
    List<CameraInput> cameras,
    FeatureStats stateStats,
    FeatureStats actionStats,
    int actionSteps,
    int encoderChannels,
    int hidden,
    float learningRate,
    long seed) {
  /** The columns the policy reads besides the cameras. */
  public static final String STATE = "observation.state";

  public static final String ACTION = "action";

  /** A configuration is kilobytes (the statistics of two vectors); a larger file is not one. */
  static final long MAX_FILE_BYTES = 16L << 20;

  // Strict: a fraction is not an int, a null not a number, an unknown field not ignored.
  private static final ObjectMapper JSON =
      com.fasterxml.jackson.databind.json.JsonMapper.builder()
          .disable(com.fasterxml.jackson.databind.DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .build();

  public PolicyConfig {
    cameras = List.copyOf(cameras);
    Objects.requireNonNull(actionStats, "actionStats");
    if (cameras.isEmpty()) {
      throw new IllegalArgumentException("the policy needs at least one camera");
    }
    if (actionSteps < 1 || encoderChannels < 2 || encoderChannels % 2 != 0 || hidden < 1) {
      throw new IllegalArgumentException(
          "actionSteps >= 1, an even encoderChannels >= 2 and hidden >= 1, not "
              + actionSteps
              + ", "
              + encoderChannels
              + ", "
              + hidden);
    }
    if (!(learningRate > 0) || !Float.isFinite(learningRate)) {
      throw new IllegalArgumentException(
          "learning rate must be a positive number, not " + learningRate);
    }
  }

  /**
   * The default widths: 32 encoder channels (32 keypoints, 64 features per camera) and 256 hidden
   * units.
   */
  public static PolicyConfig of(
      List<CameraInput> cameras,
      FeatureStats stateStats,
      FeatureStats actionStats,
      int actionSteps,
      float learningRate,
      long seed) {
    return new PolicyConfig(
        cameras, stateStats, actionStats, actionSteps, 32, 256, learningRate, seed);
  }

  /**
   * The configuration for training on {@code stream}: its cameras as its batches hold them ({@link
   * StreamingDataset#frameColumn}), {@code observation.state} when the dataset has it, the action
   * chunk of {@code actionSteps}, both normalised with the dataset's statistics ({@link
   * FeatureStats#of}).
   */
  public static PolicyConfig forDataset(
      StreamingDataset stream, int actionSteps, float learningRate, long seed) {
    LeRobotMetadata metadata = stream.metadata();
    List<CameraInput> cameras = new ArrayList<>();
    for (String camera : metadata.cameras()) {
      cameras.add(CameraInput.of(stream.frameColumn(camera)));
    }
    FeatureStats state =
        metadata.info().features().containsKey(STATE)
            ? FeatureStats.of(metadata, STATE, dimension(metadata, STATE))
            : null;
    FeatureStats action = FeatureStats.of(metadata, ACTION, dimension(metadata, ACTION));
    return of(cameras, state, action, actionSteps, learningRate, seed);
  }

  private static int dimension(LeRobotMetadata metadata, String key) {
    Feature f = metadata.info().features().get(key);
    if (f == null || f.shape().length != 1) {
      throw new IllegalArgumentException(
          metadata.root().resolve("meta/info.json")
              + ": the policy needs "
              + key
              + " as a vector feature"
              + (f == null
                  ? ", and there is none"
                  : ", not of shape " + Arrays.toString(f.shape())));
    }
    return f.shape()[0];
  }

  public int actionDimension() {
    return actionStats.dimension();
  }

  public int stateDimension() {
    return stateStats == null ? 0 : stateStats.dimension();
  }

  public void save(Path file) throws IOException {
    Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(this));
  }

  public static PolicyConfig load(Path file) throws IOException {
    if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
      throw new IOException(
          file
              + " is not a policy configuration: "
              + (Files.isRegularFile(file)
                  ? "it is " + Files.size(file) + " bytes (at most " + MAX_FILE_BYTES + ")"
                  : "no such file"));
    }
    try {
      return JSON.readValue(file.toFile(), PolicyConfig.class);
    } catch (IOException | RuntimeException e) {
      throw new IOException(file + " is not a policy configuration: " + e.getMessage(), e);
    }
  }
}
