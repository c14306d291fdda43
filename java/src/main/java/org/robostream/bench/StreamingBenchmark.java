package org.robostream.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamCounters;
import org.robostream.stream.StreamingDataset;
import org.robostream.video.DecoderCacheStats;

/**
 * The dummy-consumer data-loading benchmark with the reference's metric definitions (§9): the
 * steady window starts at batch {@code warmup} (not counted); per later batch, sample latency =
 * gap since the previous batch / batch size; frames_per_s_node = samples in the window / window
 * wall time (sustained, not a sum of gaps); the consumer reads one value of every host frame
 * tensor, or takes a device batch's pointers (see {@code consume}). Runs over epochs until {@code numBatches} batches. Not thread-safe.
 */
public final class StreamingBenchmark {
  private static volatile long consumed;

  private StreamingBenchmark() {}

  /** Raw measurements of one run. */
  public record Measurement(long framesMeasured, double firstBatchSeconds, double steadySeconds,
      double wallclockSeconds, double[] sampleLatencyMs, long decodedFramesMeasured,
      int batches) {}

  public static Measurement run(StreamingDataset ds, int numBatches, int warmup,
      ProgressBar progress) {
    long start = System.nanoTime();
    long previous = start;
    long steadyStart = 0;
    double firstBatch = -1;
    long samples = 0;
    long decodedFrames = 0;
    List<Double> latencies = new ArrayList<>();
    int i = 0;
    long checksum = 0;
    while (i < numBatches) {
      boolean any = false;
      for (Batch b : ds) {
        any = true;
        try (b) {
          checksum += consume(b, ds);
          long now = System.nanoTime();
          if (firstBatch < 0) {
            firstBatch = (now - start) / 1e9;
          }
          if (i == warmup) {
            steadyStart = now;
          } else if (i > warmup) {
            latencies.add((now - previous) / 1e6 / b.size());
            samples += b.size();
            decodedFrames += b.size() * framesPerSample(b, ds);
          }
          previous = now;
        }
        i++;
        progress.update(i, "");
        if (i >= numBatches) {
          break;
        }
      }
      if (!any) {
        break; // an empty epoch: nothing more will come
      }
    }
    long end = System.nanoTime();
    consumed = checksum; // published, so the JIT cannot drop the consumer's reads
    double[] lat = latencies.stream().mapToDouble(Double::doubleValue).toArray();
    return new Measurement(samples, firstBatch, steadyStart == 0 ? 0 : (end - steadyStart) / 1e9,
        (end - start) / 1e9, lat, decodedFrames, i);
  }

  /**
   * The dummy consumer: reads the last value of every frame tensor (host batches), or takes the
   * device pointers of a device batch without copying it (the reference moves batches to the
   * training device; GPU-decoded frames are already there, complete when the batch arrives).
   */
  private static long consume(Batch b, StreamingDataset ds) {
    long sum = b.size();
    if (b.deviceFrames() != null) {
      for (int c = 0; c < ds.metadata().info().videoKeys().size(); c++) {
        sum += b.deviceFrames().frameAddress(c);
      }
      return sum;
    }
    for (String c : ds.metadata().info().videoKeys()) {
      Batch.Frames f = b.frames(c);
      sum += f.data().get(f.data().limit() - 1);
    }
    return sum;
  }

  private static long framesPerSample(Batch b, StreamingDataset ds) {
    long n = 0;
    for (String c : ds.metadata().info().videoKeys()) {
      int[] shape = b.frameShape(c);
      n += shape.length == 5 ? shape[1] : 1;
    }
    return n;
  }

  /** The result fields of the reference, in its order, then ours. */
  public static Map<String, Object> result(Map<String, Object> config, Measurement m,
      StreamingDataset ds) {
    Map<String, Object> r = new LinkedHashMap<>(config);
    r.put("num_cameras", ds.metadata().info().videoKeys().size());
    r.put("fps", ds.metadata().info().fps());
    r.put("frames_measured", m.framesMeasured());
    r.put("first_batch_latency_s", round(m.firstBatchSeconds(), 4));
    double rate = m.steadySeconds() > 0 ? m.framesMeasured() / m.steadySeconds() : 0;
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
    r.put("decoded_frames_per_s", round(m.steadySeconds() > 0
        ? m.decodedFramesMeasured() / m.steadySeconds() : 0, 2));
    r.put("decode_amplification", round(s.amplification(), 4));
    r.put("samples_decoded_at_delivery", s.samplesDecodedOnExit());
    r.put("peak_rss_bytes", ProcessMemory.peakRssBytes());
    r.put("peak_held_frame_bytes", s.peakHeldFrameBytes());
    r.put("cpu_fallbacks", ds.cpuFallbacks());
    r.put("decode_device_effective", ds.decodeDevice().effective().name().toLowerCase(
        java.util.Locale.ROOT));
    if (ds.decodeDevice().fellBack()) {
      r.put("cpu_fallback_reason", ds.decodeDevice().fallbackReason());
    }
    r.put("batches", m.batches());
    return r;
  }

  static double round(double v, int digits) {
    if (!Double.isFinite(v)) {
      return v;
    }
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }
}
