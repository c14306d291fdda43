package org.robostream.train;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.robostream.JsonFields;

/**
 * The training loop's own part of a checkpoint ({@code rank<r>/trainer_state.json}): the step it
 * was taken at, the optimizer steps behind it (fewer than the steps when padding batches were
 * skipped) and the seed. The seed is the whole random state of a run: the initial weights come from
 * it, the data order from it and the epoch (the dataset state), every image transform from it and
 * the sample's identity, and nothing else draws a random number (the policy has no dropout), so a
 * resume checks it instead of saving a generator. {@code worldSize} is the number of ranks that
 * trained (0 in checkpoints written before it was recorded): a resume with another one says what
 * that does to the model. Immutable.
 */
public record TrainerState(int step, long optimizerSteps, long seed, int worldSize) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public void save(Path file) throws IOException {
    Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(this));
  }

  /**
   * The trainer state in {@code file}, every field type-checked and bounded.
   *
   * @throws org.robostream.FileException naming the file and the field
   */
  public static TrainerState load(Path file) {
    com.fasterxml.jackson.databind.JsonNode root = JsonFields.read(file, MAX_FILE_BYTES);
    try {
      return new TrainerState(
          JsonFields.wholeInt(root, "step", "step", 0, Integer.MAX_VALUE),
          JsonFields.whole(root, "optimizerSteps", "optimizerSteps", 0, Long.MAX_VALUE),
          JsonFields.whole(root, "seed", "seed", Long.MIN_VALUE, Long.MAX_VALUE),
          root.has("worldSize")
              ? JsonFields.wholeInt(root, "worldSize", "worldSize", 1, 1 << 20)
              : 0);
    } catch (IllegalArgumentException e) {
      throw new org.robostream.FileException(
          file.toString(), "is not a trainer state: " + e.getMessage(), e);
    }
  }

  /** A trainer state is a few dozen bytes. */
  static final long MAX_FILE_BYTES = 1L << 20;
}
