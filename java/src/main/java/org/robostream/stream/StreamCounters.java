package org.robostream.stream;

import java.util.concurrent.atomic.AtomicLong;

/** Counters shared by all workers of a stream, read exactly at any time (atomics). Thread-safe. */
public final class StreamCounters {
  final AtomicLong framesDecoded = new AtomicLong();
  final AtomicLong framesDelivered = new AtomicLong();
  final AtomicLong framesFromCache = new AtomicLong();
  final AtomicLong decodedOnEntry = new AtomicLong();
  final AtomicLong decodedOnExit = new AtomicLong();
  final AtomicLong maxDriftNanos = new AtomicLong();
  final AtomicLong peakHeldBytes = new AtomicLong();

  /**
   * Snapshot. {@code amplification} = frames decoded / frames delivered; {@code framesFromCache}:
   * frames delivered from the frame cache instead of decoded (counted in {@code framesDelivered}).
   */
  public record Snapshot(
      long framesDecoded,
      long framesDelivered,
      long framesFromCache,
      long samplesDecodedOnEntry,
      long samplesDecodedOnExit,
      double maxDriftSeconds,
      long peakHeldFrameBytes) {
    public double amplification() {
      return framesDelivered == 0 ? 0.0 : framesDecoded / (double) framesDelivered;
    }
  }

  public Snapshot snapshot() {
    return new Snapshot(
        framesDecoded.get(),
        framesDelivered.get(),
        framesFromCache.get(),
        decodedOnEntry.get(),
        decodedOnExit.get(),
        maxDriftNanos.get() / 1e9,
        peakHeldBytes.get());
  }

  void drift(double seconds) {
    long n = (long) Math.abs(seconds * 1e9);
    maxDriftNanos.accumulateAndGet(n, Math::max);
  }

  void held(long bytes) {
    peakHeldBytes.accumulateAndGet(bytes, Math::max);
  }
}
