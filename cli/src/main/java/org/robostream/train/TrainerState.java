package org.robostream.train;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The training loop's own part of a checkpoint ({@code rank<r>/trainer_state.json}): the step it
 * was taken at, the optimizer steps behind it (fewer than the steps when padding batches were
 * skipped) and the seed. The seed is the whole random state of a run: the initial weights come from
 * it, the data order from it and the epoch (the dataset state), every image transform from it and
 * the sample's identity, and nothing else draws a random number (the policy has no dropout), so a
 * resume checks it instead of saving a generator. Immutable.
 */
public record TrainerState(int step, long optimizerSteps, long seed) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public void save(Path file) throws IOException {
    Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(this));
  }

  public static TrainerState load(Path file) throws IOException {
    try {
      return JSON.readValue(file.toFile(), TrainerState.class);
    } catch (IOException | RuntimeException e) {
      throw new IOException(file + " is not a trainer state: " + e.getMessage(), e);
    }
  }
}
