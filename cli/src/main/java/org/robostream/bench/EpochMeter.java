package org.robostream.bench;

import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;

/**
 * Times one epoch of a {@link StreamingDataset}: frames delivered (samples x window positions x
 * cameras) over the whole epoch, buffer warm-up included, plus the rate after the first {@code
 * warmup} batches, the decoding done in that post-warm-up window (the loader's counters, {@link
 * DecodeWork}) and the first batch's latency. Stateless.
 */
public final class EpochMeter {
  private EpochMeter() {}

  /**
   * One epoch's numbers.
   *
   * @param postWarmupSamples samples delivered after the warm-up batches
   * @param postWarmupSeconds wall time from the end of the warm-up batches to the epoch's end
   * @param postWarmupWork decoding done in that window
   */
  public record Result(
      long frames,
      double seconds,
      double firstBatchSeconds,
      int batches,
      long postWarmupSamples,
      double postWarmupSeconds,
      DecodeWork postWarmupWork) {
    public double framesPerSecond() {
      return frames / seconds;
    }

    public double postWarmupSamplesPerSecond() {
      return postWarmupSamples / postWarmupSeconds;
    }

    /** Frames the decoders produced for samples in the post-warm-up window, per second. */
    public double postWarmupDecodedFramesPerSecond() {
      return postWarmupWork.frames() / postWarmupSeconds;
    }

    /** Whether the post-warm-up window timed decoding or the shuffle buffer. */
    public WindowFidelity postWarmupFidelity() {
      return WindowFidelity.of(postWarmupWork.samples(), postWarmupSamples);
    }
  }

  /**
   * @param warmup batches before the post-warm-up window (0: it spans the whole epoch)
   */
  public static Result run(StreamingDataset ds, int warmup) {
    long start = System.nanoTime();
    long measuredFrom = warmup == 0 ? start : 0;
    DecodeWork atWindowStart = warmup == 0 ? DecodeWork.of(ds) : null;
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
        for (String c : ds.metadata().cameras()) {
          int[] shape = b.frames(c).shape();
          perSample += shape.length == 5 ? shape[1] : 1;
        }
        frames += b.size() * perSample;
        if (batches == warmup) {
          measuredFrom = System.nanoTime();
          atWindowStart = DecodeWork.of(ds);
        } else if (batches > warmup) {
          samplesAfterWarmup += b.size();
        }
      }
    }
    long end = System.nanoTime();
    if (frames == 0 || atWindowStart == null || samplesAfterWarmup == 0) {
      throw new IllegalStateException(
          "0 frames measured: the epoch has "
              + batches
              + " batches, not more than the "
              + warmup
              + " warm-up batches");
    }
    return new Result(
        frames,
        (end - start) / 1e9,
        firstBatch,
        batches,
        samplesAfterWarmup,
        (end - measuredFrom) / 1e9,
        DecodeWork.of(ds).since(atWindowStart));
  }
}
