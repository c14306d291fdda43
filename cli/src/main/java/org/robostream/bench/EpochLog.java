package org.robostream.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-epoch numbers of one benchmark run, so the epochs a frame cache serves (2 and later) read as
 * one rate beside the first, which decodes and fills it. An epoch's time runs from the previous
 * epoch's last batch (or the run's start) to its own last batch; its decoded and cached frames are
 * the counters' difference over the same span ({@link DecodeWork}). The run's last epoch may be cut
 * short by the batch count. Not thread-safe: the consuming thread feeds it.
 */
public final class EpochLog {
  /**
   * One epoch the run touched, numbered from 1 within the run.
   *
   * @param seconds from the previous epoch's last batch (or the run's start) to this one's last
   */
  public record Epoch(
      int epoch,
      int batches,
      long samples,
      double seconds,
      long framesDecoded,
      long framesFromCache) {
    public double samplesPerSecond() {
      return seconds > 0 ? samples / seconds : 0;
    }
  }

  private final List<Epoch> epochs = new ArrayList<>();
  private long boundaryNanos;
  private DecodeWork atBoundary;
  private long lastBatchNanos;
  private int batches;
  private long samples;

  /** Starts the first epoch at {@code startNanos}, with the counters {@code atStart}. */
  public EpochLog(long startNanos, DecodeWork atStart) {
    this.boundaryNanos = startNanos;
    this.lastBatchNanos = startNanos;
    this.atBoundary = atStart;
  }

  /** A batch of {@code size} samples was consumed at {@code nanos}. */
  public void batch(int size, long nanos) {
    batches++;
    samples += size;
    lastBatchNanos = nanos;
  }

  /**
   * Closes the current epoch (none when it delivered no batch) with the counters {@code now}, read
   * right after its last batch.
   */
  public void endEpoch(DecodeWork now) {
    if (batches == 0) {
      return;
    }
    DecodeWork work = now.since(atBoundary);
    epochs.add(
        new Epoch(
            epochs.size() + 1,
            batches,
            samples,
            (lastBatchNanos - boundaryNanos) / 1e9,
            work.frames(),
            work.framesFromCache()));
    boundaryNanos = lastBatchNanos;
    atBoundary = now;
    batches = 0;
    samples = 0;
  }

  public List<Epoch> epochs() {
    return List.copyOf(epochs);
  }

  /**
   * Samples/s of epochs 2 and later together (their samples over their time), NaN when the run
   * touched one epoch only.
   */
  public double laterEpochsSamplesPerSecond() {
    long n = 0;
    double seconds = 0;
    for (Epoch e : epochs.subList(Math.min(1, epochs.size()), epochs.size())) {
      n += e.samples();
      seconds += e.seconds();
    }
    return seconds > 0 ? n / seconds : Double.NaN;
  }

  /** The result's {@code epochs} list and the epoch 1 and epochs 2+ rates. */
  void addTo(Map<String, Object> result) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Epoch e : epochs) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("epoch", e.epoch());
      row.put("batches", e.batches());
      row.put("samples", e.samples());
      row.put("seconds", StreamingBenchmark.round(e.seconds(), 3));
      row.put("samples_per_s", StreamingBenchmark.round(e.samplesPerSecond(), 2));
      row.put("frames_decoded", e.framesDecoded());
      row.put("frames_from_cache", e.framesFromCache());
      rows.add(row);
    }
    result.put("epochs", rows);
    result.put(
        "epoch1_samples_per_s",
        epochs.isEmpty() ? null : StreamingBenchmark.round(epochs.get(0).samplesPerSecond(), 2));
    double later = laterEpochsSamplesPerSecond();
    result.put(
        "later_epochs_samples_per_s",
        Double.isNaN(later) ? null : StreamingBenchmark.round(later, 2));
  }
}
