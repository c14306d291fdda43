package org.robostream.bench;

import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;

/**
 * Times one epoch of a {@link StreamingDataset}: frames delivered (samples x window positions x
 * cameras) over the whole epoch, buffer warm-up included, plus the rate after the first
 * {@code warmup} batches and the first batch's latency. Stateless.
 */
public final class EpochMeter {
  private EpochMeter() {}

  /** One epoch's numbers. */
  public record Result(long frames, double seconds, double firstBatchSeconds, int batches,
      double postWarmupSamplesPerSecond) {
    public double framesPerSecond() {
      return frames / seconds;
    }
  }

  public static Result run(StreamingDataset ds, int warmup) {
    long start = System.nanoTime();
    long measuredFrom = 0;
    long frames = 0;
    long samplesAfterWarmup = 0;
    double firstBatch = -1;
    int batches = 0;
    for (Batch b : ds) {
      try (b) {
        if (firstBatch < 0) {
          firstBatch = (System.nanoTime() - start) / 1e9;
        }
        batches++;
        long perSample = 0;
        for (String c : ds.metadata().info().videoKeys()) {
          int[] shape = b.frames(c).shape();
          perSample += shape.length == 5 ? shape[1] : 1;
        }
        frames += b.size() * perSample;
        if (batches == warmup) {
          measuredFrom = System.nanoTime();
        } else if (batches > warmup) {
          samplesAfterWarmup += b.size();
        }
      }
    }
    long end = System.nanoTime();
    if (frames == 0 || measuredFrom == 0) {
      throw new IllegalStateException("0 frames measured: the epoch has " + batches
          + " batches, not more than the " + warmup + " warm-up batches");
    }
    return new Result(frames, (end - start) / 1e9, firstBatch, batches,
        samplesAfterWarmup / ((end - measuredFrom) / 1e9));
  }
}
