package org.robostream.stream;

import java.util.concurrent.atomic.AtomicLong;
import org.robostream.dataset.TimestampReport;
import org.robostream.fetch.FetchCounters;

/** Counters shared by all workers of a stream, read exactly at any time (atomics). Thread-safe. */
public final class StreamCounters {
  final FetchCounters fetched = new FetchCounters(); // what the workers' fetchers did
  final AtomicLong decodedOnEntry = new AtomicLong();
  final AtomicLong decodedOnExit = new AtomicLong();
  final AtomicLong peakHeldBytes = new AtomicLong();
  private final TimestampReport timestamps;

  /** Counters of a stream whose data files' timestamps say {@code timestamps}. */
  public StreamCounters(TimestampReport timestamps) {
    this.timestamps = timestamps;
  }

  /**
   * Snapshot. {@code amplification} = frames decoded / frames delivered; {@code framesFromCache}:
   * frames delivered from the frame cache instead of decoded (counted in {@code framesDelivered});
   * {@code maxDriftSeconds}: the largest distance of a decoded frame's pts from where its position
   * puts it (under {@link org.robostream.dataset.TimestampRule#LEROBOT}, from its row's time);
   * {@code timestamps}: what the data files' timestamp columns said when the dataset was opened
   * (recorded timestamps are reported there, not refused).
   */
  public record Snapshot(
      long framesDecoded,
      long framesDelivered,
      long framesFromCache,
      long samplesDecodedOnEntry,
      long samplesDecodedOnExit,
      double maxDriftSeconds,
      long peakHeldFrameBytes,
      TimestampReport timestamps) {
    public double amplification() {
      return framesDelivered == 0 ? 0.0 : framesDecoded / (double) framesDelivered;
    }
  }

  public Snapshot snapshot() {
    return new Snapshot(
        fetched.framesDecoded(),
        fetched.framesDelivered(),
        fetched.framesFromCache(),
        decodedOnEntry.get(),
        decodedOnExit.get(),
        fetched.maxDriftSeconds(),
        peakHeldBytes.get(),
        timestamps);
  }

  void held(long bytes) {
    peakHeldBytes.accumulateAndGet(bytes, Math::max);
  }
}
