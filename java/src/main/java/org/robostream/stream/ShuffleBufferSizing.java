package org.robostream.stream;

import java.util.Locale;

/**
 * How many samples each worker's shuffle buffer holds, and how many frames a stream decodes ahead
 * per call, so held frames fit the worker's share of the budget. A sample that does not fit is
 * decoded in random order at batch time: up to a GOP per sample (measured 26x slower). The budget
 * holds the buffer, the batch being cut and each live stream's run-ahead; runs shrink first, then
 * the buffer. Saved states record it, so resume stays exact. Immutable.
 *
 * @param bufferSize samples each worker's reservoir holds (at most the requested size, at least 1)
 * @param run most frames a stream decodes ahead in one call (1..the frame path's maximum)
 * @param sampleBytes bytes one held sample takes (every camera and window position)
 * @param capacity samples the worker's share of the budget holds
 */
record ShuffleBufferSizing(int bufferSize, int run, long sampleBytes, long capacity) {

  /**
   * @param requested the buffer size asked for
   * @param storeBytes a worker's share of the budget for held frames
   * @param sampleBytes bytes one held sample takes
   * @param batchSize samples delivered before their batch is built (and their frames let go)
   * @param liveStreams episode streams a worker keeps open at once (max_num_shards)
   * @param maxRun the frame path's longest run
   * @param runsMayShrink whether shorter runs cost no decoding: true on the CPU (a stream's decoder
   *     stays where it stopped); false for NVDEC, where every call starts with a seek and a run cut
   *     before its GOP's end decodes the GOP's start again, so only the buffer shrinks
   */
  static ShuffleBufferSizing of(
      int requested,
      long storeBytes,
      long sampleBytes,
      int batchSize,
      int liveStreams,
      int maxRun,
      boolean runsMayShrink) {
    long perSample = Math.max(1, sampleBytes);
    long capacity = storeBytes / perSample;
    long room = capacity - batchSize; // for the buffer and the runs decoded ahead
    long ahead = (long) liveStreams * (maxRun - 1);
    if (room - ahead >= requested) {
      return new ShuffleBufferSizing(requested, maxRun, perSample, capacity);
    }
    if (!runsMayShrink) {
      // At most half the room for the runs: the worker also stops a run where the store is full,
      // so this reserve only keeps the buffer from crowding the runs out entirely.
      long reserved = Math.min(ahead, Math.max(0, room / 2));
      return new ShuffleBufferSizing(
          (int) Math.max(1, Math.min(requested, room - reserved)), maxRun, perSample, capacity);
    }
    if (room >= requested) {
      int run = (int) (1 + (room - requested) / Math.max(1, liveStreams));
      return new ShuffleBufferSizing(requested, Math.min(run, maxRun), perSample, capacity);
    }
    return new ShuffleBufferSizing((int) Math.max(1, room), 1, perSample, capacity);
  }

  /**
   * Bytes of held frames a worker needs for {@code requested} samples with full runs: what {@link
   * #of} would leave unreduced.
   */
  static long bytesFor(
      int requested, long sampleBytes, int batchSize, int liveStreams, int maxRun) {
    return (requested + (long) batchSize + (long) liveStreams * (maxRun - 1))
        * Math.max(1, sampleBytes);
  }

  /** Whether the buffer is smaller than {@code requested}. */
  boolean reduced(int requested) {
    return bufferSize < requested;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%d samples a worker (a held sample %,d B, %,d samples fit; runs of up to %d frames)",
        bufferSize,
        sampleBytes,
        capacity,
        run);
  }
}
