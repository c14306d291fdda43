package org.robostream.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.robostream.bench.BatchTransfer;
import org.robostream.bench.DatasetVideos;
import org.robostream.bench.DecodeLabel;
import org.robostream.bench.FrameCacheReport;
import org.robostream.bench.ProgressBar;
import org.robostream.bench.ResultFiles;
import org.robostream.bench.RunPlacement;
import org.robostream.bench.StreamingBenchmark;
import org.robostream.bench.TrainingDevice;
import org.robostream.bench.WindowFidelity;
import org.robostream.dataset.DatasetSource;
import org.robostream.hub.HubDataset;
import org.robostream.stream.StreamingDataset;
import org.robostream.stream.Windows;
import org.robostream.video.DecodeDeviceSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code robostream bench}: the dummy-consumer data-loading benchmark (the reference's
 * benchmark_streaming, its flags as aliases). Without dataset flags it runs on the built-in default
 * dataset.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description =
        "Data-loading benchmark with a dummy consumer: frames/s/node, latency"
            + " percentiles, first-batch latency, decoder cache, amplification, memory.")
final class BenchCommand implements Callable<Integer> {
  @Mixin DatasetOptions dataset;

  @Option(names = "--mode", defaultValue = "single", description = "single or sarm")
  String mode;

  @Option(
      names = "--source",
      description =
          "where the data comes from: local (--root), hub (the repository), bucket"
              + " (--data-files-root hf://buckets/...), warmed_bucket (the same bucket, after a warm"
              + " pass that reads every file once, timed apart) or local_mirror (the videos"
              + " `robostream prewarm` put on this node's disk; fails if they are not there)."
              + " Default: what the dataset flags say")
  String source;

  @Mixin LoaderOptions loader;

  int workers; // resolved in call(): --num-workers, else the reference's 8 capped at the cores

  @Mixin DecodeOptions decode;

  @Mixin FrameOptions frames;

  @Option(
      names = {"--num-batches", "--num_batches"},
      defaultValue = "200")
  int numBatches;

  @Option(
      names = {"--warmup-batches", "--warmup_batches"},
      defaultValue = "5")
  int warmup;

  @Option(
      names = "--device",
      description =
          "the training device each batch is moved to and"
              + " timed: cpu (a copy of every buffer) or cuda[:N] (pinned memory, one async copy;"
              + " default: cuda when this machine has a GPU, else cpu)")
  String deviceOption;

  @Option(
      names = "--split-by-rank",
      description =
          "split the dataset over the ranks the"
              + " environment names (SLURM_PROCID/SLURM_NTASKS, RANK/WORLD_SIZE or MPI's), as training"
              + " does; by default every process reads the whole dataset, as the reference's per-node"
              + " benchmark does")
  boolean splitByRank;

  @Option(
      names = {"--out-dir", "--out_dir"},
      defaultValue = "bench-results")
  Path outDir;

  @Option(
      names = "--baseline",
      description = "ffmpeg: also time the ffmpeg CLI on the same" + " videos and report the ratio")
  String baseline;

  @Option(
      names = "--default-episodes",
      defaultValue = "50",
      description = "episodes of the generated default dataset")
  int defaultEpisodes;

  // Hidden: only tests shrink the default dataset this way (200 frames take minutes on 2 cores).
  @Option(names = "--default-frames-per-episode", defaultValue = "200", hidden = true)
  int defaultFrames;

  @Override
  public Integer call() throws Exception {
    // Every flag is checked before a dataset is generated, fetched or measured.
    if (!mode.equals("single") && !mode.equals("sarm")) {
      throw new IllegalArgumentException("--mode must be single or sarm, got " + mode);
    }
    checkCounts();
    TrainingDevice toDevice =
        deviceOption == null
            ? TrainingDevice.defaultForThisMachine()
            : TrainingDevice.parse(deviceOption);
    String deviceCause = toDevice.unavailableCause();
    if (deviceCause != null) {
      throw new IllegalArgumentException(
          "--device " + toDevice.name() + ": " + deviceCause + " (use --device cpu)");
    }
    boolean remote = dataset.remote();
    source = BenchSource.resolve(source, remote, dataset.dataFilesRoot);
    BenchSource.checkBaseline(baseline, source, remote);
    DecodeDeviceSpec device = decode.device();
    frames.check();
    workers = loader.workers(Math.min(8, Runtime.getRuntime().availableProcessors()));
    DatasetSource opened = dataset.open(defaultEpisodes, defaultFrames);
    HubDataset hub = opened instanceof HubDataset h ? h : null;
    if (source.equals("local_mirror") && hub != null) {
      String missing = Prewarm.notPrewarmed(hub, dataset.dataFilesRoot);
      if (missing != null) {
        System.err.println("robostream bench: --source local_mirror: " + missing);
        return 2;
      }
    }
    HubSourceRun hubRun = hub == null ? null : HubSourceRun.opened(hub, source);
    if (hubRun != null) {
      opened = hubRun.dataset();
      hubRun.warmIfAsked(); // before the loader starts: never inside the run's time
    }
    StreamingDataset.Builder builder = StreamingDataset.builder(opened);
    loader
        .applyTo(builder, workers)
        .dropLast(true)
        .returnUint8(true)
        .toleranceSeconds(1e-3)
        .preset(mode.equals("sarm") ? Windows.Preset.SARM_BENCH : Windows.Preset.SINGLE);
    if (!splitByRank) {
      builder.rank(0, 1); // the environment's SLURM_PROCID/SLURM_NTASKS do not split this run
    }
    decode.applyTo(builder);
    frames.applyTo(builder);
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("repo_id", dataset.name(opened));
    if (hub != null) {
      config.put("revision", hub.revision().name());
      config.put("commit", hub.revision().commit());
    }
    config.put("source", source);
    config.put("mode", mode);
    config.put("batch_size", loader.batchSize);
    config.put("num_workers", workers);
    config.put("buffer_size", loader.bufferSize);
    config.put("device", toDevice.name());
    config.put("video_decode_device", device.toString());
    // What every sample's frames went through (null: nothing), so a result says what it timed.
    org.robostream.transform.ImageTransformsConfig transforms = frames.imageTransforms.config();
    config.put("image_transforms", transforms == null ? null : transforms.toString());
    System.out.println("config " + Json.MAPPER.writeValueAsString(config).replace('\n', ' '));
    Map<String, Object> result;
    StreamingBenchmark.Measurement m;
    RunPlacement placement = null;
    try (StreamingDataset ds = builder.build();
        BatchTransfer transfer = toDevice.open()) {
      if ("ffmpeg".equals(baseline) && !ds.metadata().imageCameras().isEmpty()) {
        // The ffmpeg CLI times video files; image frames would count on one side only.
        System.err.printf(
            "robostream bench: --baseline ffmpeg times the ffmpeg CLI on video files, and %s"
                + " are image features (frames in the data files): drop --baseline, or select"
                + " video cameras with --cameras%n",
            ds.metadata().imageCameras());
        return 2;
      }
      m = StreamingBenchmark.run(ds, numBatches, warmup, new ProgressBar(numBatches), transfer);
      if (m.framesMeasured() == 0) {
        System.err.printf(
            "robostream bench: 0 frames measured (%d batches delivered, %d warm-up)."
                + " Try more --num-batches, fewer --warmup-batches, a smaller --batch-size or"
                + " --num-workers 1 for a small dataset.%n",
            m.batches(), warmup);
        return 3;
      }
      result = StreamingBenchmark.result(config, m, ds, frames.frameCache.spec);
      // What the workers' buffers held: the asked size, or fewer where the budget could not.
      result.put("shuffle_buffer_size", ds.shuffleBufferSize());
      result.put("memory_budget_bytes", ds.memoryBudgetBytes());
      result.put("timestamps", ds.timestamps().summary());
      placement = RunPlacement.of(ds.rankWorld(), splitByRank, System.getenv());
      placement.addTo(result);
      if (hubRun != null) {
        hubRun.addTo(result, ds.stats().framesDelivered());
      }
      if ("ffmpeg".equals(baseline)) {
        List<Path> videos = ds.metadata().videoFiles();
        double ffmpeg =
            DatasetVideos.ffmpegFramesPerSecond(
                videos, Math.min(workers, Runtime.getRuntime().availableProcessors()));
        double decoded = ((Number) result.get("decoded_frames_per_s")).doubleValue();
        double served = ((Number) result.get("served_frames_per_s")).doubleValue();
        result.put("baseline", "ffmpeg");
        result.put("baseline_frames_per_s", Math.round(ffmpeg * 100) / 100.0);
        // Decoded frames only: a window the frame cache served shows a ratio near 0 here, and
        // what the cache bought in served_ratio.
        result.put("baseline_ratio", Math.round(decoded / ffmpeg * 1000) / 1000.0);
        result.put("served_ratio", Math.round(served / ffmpeg * 1000) / 1000.0);
      }
    }
    result.put("robostream_version", new VersionProvider().getVersion()[0]);
    result.put("java", System.getProperty("java.version"));
    result.put(
        "machine",
        System.getProperty("os.arch")
            + ", "
            + Runtime.getRuntime().availableProcessors()
            + " cores, "
            + System.getProperty("os.name"));
    // The file keeps the requested device (the reference's name); the effective one is inside.
    String name =
        ResultFiles.baseName(source, mode, loader.batchSize, workers, device.toString())
            + (placement == null ? "" : placement.fileSuffix());
    List<Path> files = ResultFiles.write(outDir, name, result);
    System.out.println(Json.MAPPER.writeValueAsString(result));
    WindowFidelity window = StreamingBenchmark.fidelity(m);
    if (window.servedFromMemory()) {
      System.err.println(
          "robostream bench: "
              + window.warning(
                  "the measured window (" + result.get("frames_per_s_node") + " frames/s/node)",
                  "decoded_frames_per_s ("
                      + result.get("decoded_frames_per_s")
                      + ") counts what the decoders did inside it and"
                      + " the ratio to the ffmpeg CLI uses it; the whole run, buffer fill included,"
                      + " delivered "
                      + result.get("whole_run_frames_per_s_node")
                      + " frames/s/node. To"
                      + " time decoding, use a dataset of more than --buffer-size x --num-workers samples"
                      + " or more --num-batches."));
    }
    String decodedOn =
        DecodeLabel.of(
            device.toString(),
            (String) result.get("decode_device_effective"),
            ((Number) result.get("cpu_fallbacks")).longValue());
    System.out.printf(
        Locale.ROOT,
        "%s %s, decode %s: %.1f frames/s/node%s (%.1f decoded"
            + " frames/s in the window; whole run %.1f frames/s/node)%s; to %s %.1f MB per batch,"
            + " p50 %.2f ms; wrote %s and %s%n",
        source,
        mode,
        decodedOn,
        result.get("frames_per_s_node"),
        window.servedFromMemory() ? " [served from memory]" : "",
        result.get("decoded_frames_per_s"),
        result.get("whole_run_frames_per_s_node"),
        result.containsKey("baseline_ratio")
            ? ", ratio to the ffmpeg CLI " + result.get("baseline_ratio")
            : "",
        toDevice.name(),
        ((Number) result.get("to_device_bytes_per_batch")).longValue() / 1e6,
        result.get("to_device_ms_p50"),
        files.get(0),
        files.get(1));
    if (result.get("frame_cache") != null) {
      System.out.println(FrameCacheReport.line(result));
    }
    return 0;
  }

  private void checkCounts() {
    loader.check();
    FlagChecks.atLeast(1, "--num-batches", numBatches);
    FlagChecks.atLeast(0, "--warmup-batches", warmup);
    FlagChecks.atLeast(1, "--default-episodes", defaultEpisodes);
    FlagChecks.atLeast(1, "--default-frames-per-episode", defaultFrames);
  }
}
