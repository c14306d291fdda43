package org.robostream.cli;

import org.robostream.stream.StreamingDataset;
import picocli.CommandLine.Option;

/**
 * The loader flags of the commands that stream batches to a consumer ({@code bench}, {@code
 * train}), declared once (picocli mixin): {@code --batch-size}, {@code --num-workers}, {@code
 * --buffer-size}, {@code --seed} and {@code --memory-budget-mb}, with the reference's snake_case
 * aliases and defaults. Each command gives its own default worker count ({@link #workers(int)}).
 * Not thread-safe: picocli fills it, one command reads it.
 */
final class LoaderOptions {
  @Option(
      names = {"--batch-size", "--batch_size"},
      defaultValue = "64",
      description = "samples per batch (default: ${DEFAULT-VALUE})")
  int batchSize;

  @Option(
      names = {"--num-workers", "--num_workers"},
      description =
          "the loader's decoding threads (default: bench the reference's 8, capped at this"
              + " machine's cores; train 2)")
  Integer workers;

  @Option(
      names = {"--buffer-size", "--buffer_size"},
      defaultValue = "2000",
      description = "shuffle buffer per worker, in samples (default: ${DEFAULT-VALUE})")
  int bufferSize;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "the sample order's seed (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = {"--memory-budget-mb", "--memory_budget_mb"},
      description =
          "MiB the workers may hold: their prefetched batches and their shuffle buffers' frames"
              + " (default: the prefetched batches + 2048; a buffer whose frames do not fit is"
              + " made smaller, with a warning)")
  Long memoryBudgetMb;

  /** Exit 2 (an IllegalArgumentException naming the flag) on a count below 1. */
  void check() {
    FlagChecks.atLeast(1, "--batch-size", batchSize);
    if (workers != null) {
      FlagChecks.atLeast(1, "--num-workers", workers);
    }
    FlagChecks.atLeast(1, "--buffer-size", bufferSize);
    if (memoryBudgetMb != null) {
      FlagChecks.mebibytes("--memory-budget-mb", memoryBudgetMb);
    }
  }

  /** The worker count asked for, else the command's {@code defaultWorkers}. */
  int workers(int defaultWorkers) {
    return workers != null ? workers : defaultWorkers;
  }

  /**
   * Sets batch size, workers ({@code defaultWorkers} unless asked), buffer size, seed and, when
   * asked, the memory budget.
   */
  StreamingDataset.Builder applyTo(StreamingDataset.Builder builder, int defaultWorkers) {
    builder.batchSize(batchSize).workers(workers(defaultWorkers)).bufferSize(bufferSize).seed(seed);
    if (memoryBudgetMb != null) {
      builder.memoryBudgetBytes(FlagChecks.mebibytes("--memory-budget-mb", memoryBudgetMb));
    }
    return builder;
  }
}
