package org.robostream.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamCounters;
import org.robostream.stream.StreamingDataset;
import org.robostream.video.DecoderCacheStats;

/**
 * The dummy-consumer data-loading benchmark with the reference's metric definitions (§9): the
 * steady window starts at batch {@code warmup} (not counted); per later batch, sample latency = gap
 * since the previous batch / batch size; frames_per_s_node = samples in the window / window wall
 * time (sustained, not a sum of gaps). The consumer moves every batch to the training device
 * ({@link BatchTransfer}), timed. Beside the reference's numbers it reads the loader's decode
 * counters at the start, at the window's start and at the end ({@link DecodeWork}): decoded
 * frames/s inside the window, the whole run's rates, and whether the window was served from memory
 * ({@link WindowFidelity}). With a frame cache the window's frames read from it are counted apart
 * from the decoded ones (served frames/s beside decoded frames/s), and each epoch's rate is kept
 * ({@link EpochLog}): epochs after the first are the ones the cache serves. Runs over epochs until
 * {@code numBatches} batches. Not thread-safe.
 */
public final class StreamingBenchmark {
  private StreamingBenchmark() {}

  /**
   * Raw measurements of one run. The window counts batches after batch {@code warmup}; the run
   * counts every batch from the start.
   *
   * @param framesMeasured samples delivered in the window (the reference's "frames")
   * @param deliveredFramesMeasured frames delivered in the window (samples x frames per sample)
   * @param samplesDelivered samples delivered in the whole run, warm-up batches included
   * @param windowWork decoding (and frame cache reads) done inside the window
   * @param runWork decoding (and frame cache reads) done in the whole run
   * @param toDeviceMs per window batch, the time its move to the training device took
   * @param toDeviceBytes bytes moved to the training device in the window
   */
  public record Measurement(
      long framesMeasured,
      double firstBatchSeconds,
      double steadySeconds,
      double wallclockSeconds,
      double[] sampleLatencyMs,
      long deliveredFramesMeasured,
      int batches,
      long samplesDelivered,
      DecodeWork windowWork,
      DecodeWork runWork,
      double[] toDeviceMs,
      long toDeviceBytes,
      EpochLog epochs) {}

  public static Measurement run(
      StreamingDataset ds,
      int numBatches,
      int warmup,
      ProgressBar progress,
      BatchTransfer toDevice) {
    long start = System.nanoTime();
    DecodeWork atStart = DecodeWork.of(ds);
    DecodeWork atWindowStart = null;
    EpochLog epochs = new EpochLog(start, atStart);
    long previous = start;
    long steadyStart = 0;
    double firstBatch = -1;
    long samples = 0;
    long samplesDelivered = 0;
    long deliveredFrames = 0;
    long movedBytes = 0;
    List<Double> latencies = new ArrayList<>();
    List<Double> moveMs = new ArrayList<>();
    int i = 0;
    while (i < numBatches) {
      boolean any = false;
      for (Batch b : ds) {
        any = true;
        try (b) {
          long moveStart = System.nanoTime();
          long bytes = toDevice.copy(b);
          long now = System.nanoTime();
          if (firstBatch < 0) {
            firstBatch = (now - start) / 1e9;
          }
          samplesDelivered += b.size();
          epochs.batch(b.size(), now);
          if (i == warmup) {
            steadyStart = now;
            atWindowStart = DecodeWork.of(ds);
          } else if (i > warmup) {
            latencies.add((now - previous) / 1e6 / b.size());
            samples += b.size();
            deliveredFrames += b.size() * framesPerSample(b, ds);
            moveMs.add((now - moveStart) / 1e6);
            movedBytes += bytes;
          }
          previous = now;
        }
        i++;
        progress.update(i, "");
        if (i >= numBatches) {
          break;
        }
      }
      epochs.endEpoch(DecodeWork.of(ds)); // or the batch count ended the run inside it
      if (!any) {
        break; // an empty epoch: nothing more will come
      }
    }
    long end = System.nanoTime();
    DecodeWork atEnd = DecodeWork.of(ds);
    return new Measurement(
        samples,
        firstBatch,
        steadyStart == 0 ? 0 : (end - steadyStart) / 1e9,
        (end - start) / 1e9,
        toArray(latencies),
        deliveredFrames,
        i,
        samplesDelivered,
        atWindowStart == null ? DecodeWork.NONE : atEnd.since(atWindowStart),
        atEnd.since(atStart),
        toArray(moveMs),
        movedBytes,
        epochs);
  }

  private static double[] toArray(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static long framesPerSample(Batch b, StreamingDataset ds) {
    long n = 0;
    for (String c : ds.metadata().cameras()) {
      int[] shape = b.frameShape(c);
      n += shape.length == 5 ? shape[1] : 1;
    }
    return n;
  }

  /**
   * The result fields of the reference, in its order, then ours; {@code frameCacheSpec}: the {@code
   * --frame-cache} value, null without a frame cache (then {@code frame_cache} is null).
   */
  public static Map<String, Object> result(
      Map<String, Object> config, Measurement m, StreamingDataset ds, String frameCacheSpec) {
    Map<String, Object> r = new LinkedHashMap<>(config);
    r.put("num_cameras", ds.metadata().cameras().size());
    r.put("fps", ds.metadata().info().fps());
    r.put("frames_measured", m.framesMeasured());
    r.put("first_batch_latency_s", round(m.firstBatchSeconds(), 4));
    double rate = perSecond(m.framesMeasured(), m.steadySeconds());
    r.put("frames_per_s_node", round(rate, 2));
    r.put("samples_per_s", round(rate, 2));
    r.put("p50_sample_latency_ms", round(LatencyStats.median(m.sampleLatencyMs()), 3));
    r.put("p95_sample_latency_ms", round(LatencyStats.nearestRank(m.sampleLatencyMs(), 95), 3));
    r.put("p99_sample_latency_ms", round(LatencyStats.nearestRank(m.sampleLatencyMs(), 99), 3));
    r.put("wallclock_s", round(m.wallclockSeconds(), 2));
    DecoderCacheStats cache = ds.decoderCacheStats();
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("hits", cache.hits());
    c.put("misses", cache.misses());
    c.put("evictions", cache.evictions());
    c.put("hit_rate", round(cache.hitRate(), 4));
    r.put("video_decoder_cache", c);
    StreamCounters.Snapshot s = ds.stats();
    WindowFidelity window = fidelity(m);
    r.put("decoded_frames_per_s", round(perSecond(m.windowWork().frames(), m.steadySeconds()), 2));
    r.put("window_frames_decoded", m.windowWork().frames());
    r.put("window_frames_from_cache", m.windowWork().framesFromCache());
    r.put(
        "served_frames_per_s",
        round(perSecond(m.windowWork().framesServed(), m.steadySeconds()), 2));
    r.put(
        "delivered_frames_per_s",
        round(perSecond(m.deliveredFramesMeasured(), m.steadySeconds()), 2));
    r.put("window_samples_decoded_share", round(window.decodedShare(), 4));
    r.put("window_served_from_memory", window.servedFromMemory());
    r.put(
        "whole_run_frames_per_s_node",
        round(perSecond(m.samplesDelivered(), m.wallclockSeconds()), 2));
    r.put(
        "whole_run_decoded_frames_per_s",
        round(perSecond(m.runWork().frames(), m.wallclockSeconds()), 2));
    r.put("decode_amplification", round(DecodeWork.amplification(s), 4));
    r.put("samples_decoded_at_delivery", s.samplesDecodedOnExit());
    double[] moveMs = m.toDeviceMs();
    double moveSeconds = Arrays.stream(moveMs).sum() / 1e3;
    r.put("to_device_bytes_per_batch", moveMs.length == 0 ? 0 : m.toDeviceBytes() / moveMs.length);
    r.put("to_device_ms_p50", round(LatencyStats.median(moveMs), 3));
    r.put("to_device_ms_mean", round(Arrays.stream(moveMs).average().orElse(Double.NaN), 3));
    r.put("to_device_gb_per_s", round(perSecond(m.toDeviceBytes(), moveSeconds) / 1e9, 3));
    r.put("peak_rss_bytes", ProcessMemory.peakRssBytes());
    r.put("peak_held_frame_bytes", s.peakHeldFrameBytes());
    r.put("cpu_fallbacks", ds.cpuFallbacks());
    r.put(
        "decode_device_effective",
        ds.decodeDevice().effective().name().toLowerCase(java.util.Locale.ROOT));
    if (ds.decodeDevice().fellBack()) {
      r.put("cpu_fallback_reason", ds.decodeDevice().fallbackReason());
    }
    r.put("batches", m.batches());
    m.epochs().addTo(r);
    r.put(
        "frame_cache",
        frameCacheSpec == null
            ? null
            : FrameCacheReport.block(frameCacheSpec, ds.frameCacheStats()));
    return r;
  }

  /** Whether the window timed decoding or the shuffle buffer (see {@link WindowFidelity}). */
  public static WindowFidelity fidelity(Measurement m) {
    return WindowFidelity.of(m.windowWork().samples(), m.framesMeasured());
  }

  private static double perSecond(long count, double seconds) {
    return seconds > 0 ? count / seconds : 0;
  }

  static double round(double v, int digits) {
    if (!Double.isFinite(v)) {
      return v;
    }
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }
}
