package org.robostream.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.robostream.bench.DecodeWork;
import org.robostream.bench.DefaultDataset;
import org.robostream.bench.EpochMeter;
import org.robostream.bench.FrameCacheReport;
import org.robostream.bench.ProcessMemory;
import org.robostream.bench.SequentialDecodeBaseline;
import org.robostream.bench.SequentialImageBaseline;
import org.robostream.bench.WindowFidelity;
import org.robostream.dataset.DatasetSource;
import org.robostream.dataset.SourceOptions;
import org.robostream.stream.StreamCounters;
import org.robostream.stream.StreamingDataset;
import org.robostream.stream.Windows;
import org.robostream.video.FrameLayout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code robostream stream-bench [ROOT]}: streams one epoch and prints frames/s next to the pure
 * sequential decode + convert rate of the same videos (and images of image features) measured in
 * the same run, with the ratio (the loader's overhead), decode amplification, cache statistics and
 * peak RSS. Without ROOT it generates (once) a camera-like default dataset: 3 cameras 256x256 at 20
 * fps, AV1 keyframe every 2 frames.
 */
@Command(
    name = "stream-bench",
    mixinStandardHelpOptions = true,
    description = "Stream a dataset epoch and compare with sequential decoding of its videos.")
final class StreamBenchCommand implements Callable<Integer> {
  @Parameters(index = "0", arity = "0..1", paramLabel = "ROOT", description = "dataset root")
  Path root;

  @Option(
      names = "--default-episodes",
      defaultValue = "16",
      description = "episodes of the generated default dataset")
  int defaultEpisodes;

  @Mixin SelectionOptions selection;

  @Option(names = "--frames-per-episode", defaultValue = "100")
  int defaultFrames;

  @Option(names = "--batch-size", defaultValue = "32")
  int batchSize;

  @Option(names = "--workers", defaultValue = "2")
  int workers;

  @Option(names = "--buffer-size", defaultValue = "1000")
  int bufferSize;

  @Option(names = "--max-num-shards", defaultValue = "16")
  int maxNumShards;

  @Option(names = "--mode", defaultValue = "single", description = "single, sarm-bench or sarm")
  String mode;

  @Option(names = "--no-shuffle", description = "natural order")
  boolean noShuffle;

  @Option(
      names = "--memory-budget-mb",
      description = "as bench's (default: the prefetched batches + 2048)")
  Long budgetMb;

  @Option(names = "--warmup-batches", defaultValue = "2")
  int warmup;

  @Option(
      names = "--rounds",
      defaultValue = "2",
      description = "alternating runs of each side (baseline, epoch, baseline, epoch...)")
  int rounds;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
  Path json;

  @Mixin FrameOptions frames;

  @Override
  public Integer call() throws Exception {
    checkCounts(); // before a default dataset is generated
    frames.check();
    Path dataset = root != null ? root : DefaultDataset.ensure(defaultEpisodes, defaultFrames);
    StreamingDataset.Builder builder =
        StreamingDataset.builder(
                DatasetSource.local(dataset, selection.applyTo(SourceOptions.defaults())))
            .batchSize(batchSize)
            .workers(workers)
            .bufferSize(bufferSize)
            .maxNumShards(maxNumShards)
            .shuffle(!noShuffle)
            .returnUint8(true)
            .preset(Windows.Preset.valueOf(mode.toUpperCase(Locale.ROOT).replace('-', '_')));
    if (budgetMb != null) {
      builder.memoryBudgetBytes(FlagChecks.mebibytes("--memory-budget-mb", budgetMb));
    }
    frames.applyTo(builder);
    Map<String, Object> out = new LinkedHashMap<>();
    try (StreamingDataset ds = builder.build()) {
      List<Path> videos = ds.metadata().videoFiles();
      // Alternating runs, the best of each side kept: the first runs also warm the JIT, the
      // page cache and the loader's recycled memory, as a trainer's later epochs find them.
      SequentialDecodeBaseline.Result baseline = null;
      EpochMeter.Result best = null;
      List<Map<String, Object>> epochs = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        SequentialDecodeBaseline.Result b = sequentialBaseline(ds, videos);
        if (baseline == null || b.framesPerSecond() > baseline.framesPerSecond()) {
          baseline = b;
        }
        EpochMeter.Result e = EpochMeter.run(ds, warmup);
        if (best == null || e.framesPerSecond() > best.framesPerSecond()) {
          best = e;
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("sequential_decode_fps", b.framesPerSecond());
        row.put("stream_frames_per_s", e.framesPerSecond());
        row.put("first_batch_s", e.firstBatchSeconds());
        epochs.add(row);
      }
      double streamFps = best.framesPerSecond();
      StreamCounters.Snapshot stats = ds.stats();
      out.put("dataset", dataset.toString());
      out.put("mode", mode);
      out.put("cameras", ds.metadata().cameras().size());
      out.put("episodes", ds.metadata().episodes().size());
      out.put("batch_size", batchSize);
      out.put("workers", workers);
      out.put("buffer_size", bufferSize);
      out.put("shuffle", !noShuffle);
      out.put("sequential_decode_fps", baseline.framesPerSecond());
      out.put("stream_frames_per_s", streamFps);
      out.put("epoch_seconds", best.seconds());
      WindowFidelity postWarmup = best.postWarmupFidelity();
      out.put("post_warmup_samples_per_s", best.postWarmupSamplesPerSecond());
      out.put("post_warmup_decoded_frames_per_s", best.postWarmupDecodedFramesPerSecond());
      out.put("post_warmup_samples_decoded_share", postWarmup.decodedShare());
      out.put("post_warmup_served_from_memory", postWarmup.servedFromMemory());
      out.put("runs", epochs);
      out.put("ratio", streamFps / baseline.framesPerSecond());
      out.put("decode_amplification", DecodeWork.amplification(stats));
      out.put("samples_decoded_on_entry", stats.samplesDecodedOnEntry());
      out.put("samples_decoded_on_exit", stats.samplesDecodedOnExit());
      out.put("first_batch_s", best.firstBatchSeconds());
      out.put("batches", best.batches());
      out.put("decoder_cache", ds.decoderCacheStats());
      out.put(
          "frame_cache",
          frames.frameCache.spec == null
              ? null
              : FrameCacheReport.block(frames.frameCache.spec, ds.frameCacheStats()));
      out.put("memory_budget_bytes", ds.memoryBudgetBytes());
      out.put("shuffle_buffer_size", ds.shuffleBufferSize());
      out.put("peak_held_frame_bytes", stats.peakHeldFrameBytes());
      out.put("peak_rss_bytes", ProcessMemory.peakRssBytes());
      out.put("max_pts_drift_s", stats.maxDriftSeconds());
      if (postWarmup.servedFromMemory()) {
        System.err.println(
            "robostream stream-bench: "
                + postWarmup.warning(
                    String.format(
                        Locale.ROOT,
                        "the post-warm-up window (%.1f samples/s)",
                        best.postWarmupSamplesPerSecond()),
                    String.format(
                        Locale.ROOT,
                        "Its decoders produced"
                            + " %.1f frames/s; the whole-epoch rate, buffer fill included, is the one compared"
                            + " with sequential decoding.",
                        best.postWarmupDecodedFramesPerSecond())));
      }
    }
    System.out.printf(
        Locale.ROOT,
        "sequential decode+convert: %.1f frames/s | streaming (whole"
            + " epoch): %.1f frames/s (post-warm-up %.1f samples/s%s) | ratio %.2f | decode"
            + " amplification %.3f | peak RSS %d MiB | first batch %.2f s (best of %d alternating"
            + " runs each)%n",
        out.get("sequential_decode_fps"),
        out.get("stream_frames_per_s"),
        out.get("post_warmup_samples_per_s"),
        Boolean.TRUE.equals(out.get("post_warmup_served_from_memory"))
            ? ", served from memory"
            : "",
        out.get("ratio"),
        out.get("decode_amplification"),
        ((Long) out.get("peak_rss_bytes")) >> 20,
        out.get("first_batch_s"),
        rounds);
    if (json != null) {
      Json.MAPPER.writeValue(json.toFile(), out);
    }
    return 0;
  }

  /**
   * Sequential decoding of the same frames: the videos' and, for image-feature cameras, the images'
   * (each side's time at the scaling credited to it).
   */
  private SequentialDecodeBaseline.Result sequentialBaseline(StreamingDataset ds, List<Path> videos)
      throws Exception {
    SequentialDecodeBaseline.Result v =
        videos.isEmpty() ? null : SequentialDecodeBaseline.run(videos, workers, FrameLayout.CHW);
    SequentialDecodeBaseline.Result i =
        ds.metadata().imageCameras().isEmpty()
            ? null
            : SequentialImageBaseline.run(ds.metadata(), workers, FrameLayout.CHW);
    if (v == null || i == null) {
      return v != null ? v : i;
    }
    return new SequentialDecodeBaseline.Result(
        v.frames() + i.frames(), v.seconds() / v.scaling() + i.seconds() / i.scaling(), 1);
  }

  private void checkCounts() {
    FlagChecks.atLeast(1, "--default-episodes", defaultEpisodes);
    FlagChecks.atLeast(1, "--frames-per-episode", defaultFrames);
    FlagChecks.atLeast(1, "--batch-size", batchSize);
    FlagChecks.atLeast(1, "--workers", workers);
    FlagChecks.atLeast(1, "--buffer-size", bufferSize);
    FlagChecks.atLeast(1, "--max-num-shards", maxNumShards);
    if (budgetMb != null) {
      FlagChecks.mebibytes("--memory-budget-mb", budgetMb);
    }
    FlagChecks.atLeast(0, "--warmup-batches", warmup);
    FlagChecks.atLeast(1, "--rounds", rounds);
  }
}
