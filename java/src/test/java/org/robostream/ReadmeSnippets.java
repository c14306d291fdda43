package org.robostream;

import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;

/**
 * The streaming snippets of README.md's library section, verbatim between the {@code README}
 * markers (indentation aside), as a program: {@link ReadmeSnippetsTest} runs it in a child JVM
 * whose working directory holds {@code my_lerobot_dataset} and whose {@code HF_ENDPOINT} is the
 * test Hub. {@link #train} stands in for the user's training step and counts what it is given. Not
 * thread-safe (one snippet per process).
 */
public final class ReadmeSnippets {
  private static long samples;
  private static long frameBytes;
  private static long actionValues;

  private ReadmeSnippets() {}

  /** {@code local} or {@code hub}; prints what {@link #train} was given. */
  public static void main(String[] args) {
    if (args[0].equals("local")) {
      local();
    } else {
      hub();
    }
    System.out.println(
        "samples " + samples + " frame_bytes " + frameBytes + " action_values " + actionValues);
  }

  static void local() {
    // spotless:off (README.md shows this block as it is)
    // README local: begin
    try (StreamingDataset ds = StreamingDataset.builder("./my_lerobot_dataset")
            .batchSize(64).workers(4).returnUint8(true).build()) {  // rank/world from SLURM_*/RANK
      for (Batch b : ds) {                                          // one epoch
        try (b) {
          train(b.frames("observation.images.top"), b.doubles("action"));  // [B, 3, H, W], no copy
        }
      }
    }
    // README local: end
    // spotless:on
  }

  static void hub() {
    // spotless:off (README.md shows this block as it is)
    // README hub: begin
    // HF_ENDPOINT, HF_TOKEN (or $HF_HOME/token), HF_LEROBOT_HOME: read as huggingface_hub does
    try (StreamingDataset ds = StreamingDataset.builder("hf://datasets/lerobot/pusht")
            .batchSize(64).workers(4).returnUint8(true).build()) {  // "lerobot/pusht@v3.0" too
      String camera = ds.metadata().info().videoKeys().get(0);
      for (Batch b : ds) {                                          // videos by range requests
        try (b) {
          train(b.frames(camera), b.doubles("action"));
        }
      }
    }
    // README hub: end
    // spotless:on
  }

  static void train(Batch.Frames frames, double[] action) {
    samples += frames.shape()[0];
    frameBytes += frames.data().remaining();
    actionValues += action.length;
  }
}
