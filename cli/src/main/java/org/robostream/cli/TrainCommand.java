package org.robostream.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.robostream.bench.FrameCacheReport;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.DatasetSource;
import org.robostream.stream.StreamingDataset;
import org.robostream.torch.policy.PolicyTrainer;
import org.robostream.train.Checkpoint;
import org.robostream.train.TrainRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code robostream train}: distributed, resumable streaming training of a visuomotor policy (the
 * reference's train_streaming_multinode, with a convolutional policy on libtorch instead of ACT).
 * Rank and world come from the environment (SLURM, torchrun, MPI); each rank streams its own share,
 * no sampler, and all ranks train one model: gradients are averaged across ranks every step over
 * libtorch's c10d (Gloo on the CPU, NCCL on GPUs), as the reference's Accelerate/DDP does. Every
 * {@code --save-freq} steps each rank writes its dataset state, its replica and its optimizer state
 * (see {@link Checkpoint}); {@code --resume-from} continues from such a folder exactly as the
 * uninterrupted run would have: same samples, same losses. {@code --dummy} streams without a model
 * (pure data loading, no rendezvous). The loop itself is {@link TrainRun}.
 */
@Command(
    name = "train",
    mixinStandardHelpOptions = true,
    description =
        "Stream a dataset into a training loop (one convolutional visuomotor policy on libtorch,"
            + " its gradients averaged across ranks every step; or --dummy for pure data loading)"
            + " with periodic resumable checkpoints and per-window metrics (samples/s, data-wait"
            + " share, model step time, all-reduce time).")
final class TrainCommand implements Callable<Integer> {
  /**
   * Flags that are a rank's own: where this node keeps things (paths, memory, caches), which device
   * it decodes and trains on, fault injection. Every other flag must be the same on every rank of a
   * job; the rendezvous compares them ({@code JobCheck}).
   */
  static final java.util.Set<String> RANK_OWN_FLAGS =
      java.util.Set.of(
          "--root",
          "--data-files-root",
          "--allow-symlinks-outside-root",
          "--memory-budget-mb",
          "--video-decode-device",
          "--video-decoder-cache-size",
          "--frame-cache",
          "--model-device",
          "--record-indices",
          "--halt-after-step",
          "--resume-from");

  @Spec CommandSpec spec;

  @Mixin DatasetOptions dataset;

  @Mixin DecodeOptions decode;

  @Mixin FrameOptions frames;

  @Option(
      names = {"--output-dir", "--output_dir"},
      defaultValue = "outputs/train")
  Path outputDir;

  @Option(names = "--steps", defaultValue = "1000")
  int steps;

  @Option(
      names = "--epochs",
      description =
          "stop at the end of this epoch (0-based count of"
              + " epochs completed), even before --steps")
  Integer epochs;

  @Mixin LoaderOptions loader;

  /** train's default worker count: decoding leaves the cores to the model. */
  private static final int DEFAULT_WORKERS = 2;

  @Option(
      names = {"--drop-last", "--drop_last"},
      description =
          "drop each worker's last partial"
              + " batch, as the reference's DataLoader does (default: keep it, so an epoch delivers every"
              + " sample exactly once)")
  boolean dropLast;

  @Option(
      names = {"--n-action-steps", "--n_action_steps"},
      defaultValue = "16",
      description = "length of the action chunk the policy predicts (frames)")
  int actionSteps;

  @Option(
      names = {"--save-freq", "--save_freq"},
      defaultValue = "200")
  int saveFreq;

  @Option(
      names = {"--log-freq", "--log_freq"},
      defaultValue = "20")
  int logFreq;

  @Option(names = {"--resume-from", "--resume_from"})
  Path resumeFrom;

  @Option(names = "--dummy", description = "pure data loading, no model")
  boolean dummy;

  @Option(
      names = {"--lr", "--learning-rate"},
      defaultValue = "1e-3",
      description = "Adam's learning rate")
  float learningRate;

  @Option(
      names = "--model-device",
      defaultValue = "auto",
      description =
          "where the policy trains: cpu, cuda[:N] (gpu[:N]), or auto (a GPU when libtorch has"
              + " CUDA natives and finds one, else the CPU); ranks on GPUs average over NCCL")
  String modelDevice;

  @Option(
      names = "--dist-timeout",
      defaultValue = "600",
      description =
          "seconds to wait for every rank at the rendezvous and for each all-reduce before failing"
              + " with the rendezvous named (a rank that never starts, or dies)")
  int distTimeoutSeconds;

  @Option(
      names = "--record-indices",
      description =
          "append '<step> <index>' per delivered"
              + " sample (padding excluded) to this file: for tests and audits")
  Path recordIndices;

  @Option(
      names = "--halt-after-step",
      hidden = true,
      description = "fault injection for tests: halt the JVM abruptly after this step")
  Integer haltAfter;

  /** Every flag's value but a rank's own ({@link #RANK_OWN_FLAGS}), by its longest name. */
  private java.util.SortedMap<String, String> sharedSettings() {
    java.util.SortedMap<String, String> shared = new java.util.TreeMap<>();
    for (OptionSpec o : spec.options()) {
      String name = o.longestName();
      if (o.usageHelp() || o.versionHelp() || RANK_OWN_FLAGS.contains(name)) {
        continue;
      }
      Object v = o.getValue();
      shared.put(
          name,
          v == null
              ? ""
              : v instanceof Object[] a ? java.util.Arrays.toString(a) : String.valueOf(v));
    }
    return shared;
  }

  @Override
  public Integer call() throws Exception {
    loader.check();
    for (int v : new int[] {saveFreq, logFreq, actionSteps}) {
      if (v <= 0) {
        throw new IllegalArgumentException(
            "--save-freq, --log-freq and --n-action-steps must be positive");
      }
    }
    if (!(learningRate > 0) || !Float.isFinite(learningRate)) {
      throw new IllegalArgumentException("--lr must be a positive number, not " + learningRate);
    }
    decode.device(); // a typo is an exit 2 before the dataset is prepared
    frames.check();
    if (distTimeoutSeconds <= 0) {
      throw new IllegalArgumentException(
          "--dist-timeout must be a positive number of seconds, not " + distTimeoutSeconds);
    }
    // A typo or a GPU libtorch cannot use is an exit 2 before the dataset is prepared.
    if (!dummy) {
      // Checked here only: each rank resolves it with its local rank (cuda/auto: its own GPU).
      PolicyTrainer.device(modelDevice);
    }
    if (resumeFrom != null) {
      resumeFrom = locateCheckpoint(resumeFrom);
    }
    // Only this user may change what is in it: checked (and made) before the dataset opens.
    outputDir = Checkpoint.outputFolder(outputDir);
    DatasetSource opened = dataset.open(50, 200);
    DatasetInfo info = opened.metadata().info();
    int fps = info.fps();
    double[] deltas = new double[actionSteps];
    for (int t = 0; t < actionSteps; t++) {
      deltas[t] = t / (double) fps;
    }
    StreamingDataset.Builder builder =
        loader
            .applyTo(StreamingDataset.builder(opened), DEFAULT_WORKERS)
            .dropLast(dropLast)
            .returnUint8(true)
            .toleranceSeconds(1e-3)
            .deltaTimestamps(Map.of("action", deltas));
    decode.applyTo(builder);
    frames.applyTo(builder);
    int step = resumeFrom == null ? 0 : Checkpoint.resume(resumeFrom, builder);
    try (StreamingDataset ds = builder.build();
        PrintWriter record =
            recordIndices == null
                ? null
                : new PrintWriter(
                    Files.newBufferedWriter(
                        recordIndices, StandardOpenOption.CREATE, StandardOpenOption.APPEND))) {
      int rank = ds.rankWorld().rank();
      int world = ds.rankWorld().world();
      System.out.printf(
          "rank %d of %d (%s), starting at step %d, epoch %d%s%n",
          rank,
          world,
          ds.rankWorld().source(),
          step,
          ds.epoch(),
          dummy ? ", no model (--dummy)" : ", --model-device " + modelDevice);
      TrainRun run =
          new TrainRun(
              ds,
              new TrainRun.Settings(
                  outputDir,
                  steps,
                  epochs,
                  actionSteps,
                  saveFreq,
                  logFreq,
                  dummy,
                  loader.seed,
                  learningRate,
                  modelDevice,
                  Duration.ofSeconds(distTimeoutSeconds),
                  resumeFrom,
                  record,
                  haltAfter,
                  sharedSettings()),
              step,
              System.out);
      if (run.run() == TrainRun.Outcome.EMPTY_EPOCH) {
        // Every rank yields the same number of batches, so all ranks stop here together.
        System.err.printf(
            "robostream train: epoch %d delivered no batch to rank %d of %d"
                + " (%d frames in the dataset, batch size %d%s): use a smaller --batch-size or fewer"
                + " ranks or workers%n",
            run.emptyEpoch(),
            rank,
            world,
            ds.metadata().info().totalFrames(),
            loader.batchSize,
            dropLast ? ", partial batches dropped" : "");
        return 3;
      }
      System.out.printf(
          "done: %d steps, epoch %d, rank %d; metrics in %s%n",
          run.step(), ds.epoch(), rank, run.metricsSummary());
      if (frames.frameCache.spec != null) {
        // One line, as bench's config line: a launcher's log is read line by line.
        String stats =
            Json.MAPPER.writeValueAsString(
                FrameCacheReport.block(frames.frameCache.spec, ds.frameCacheStats()));
        System.out.println("frame_cache " + stats.replace('\n', ' '));
      }
    }
    return 0;
  }

  /** {@code --resume-from}'s folder, checked up front: a wrong path is an exit 2 naming it. */
  private static Path locateCheckpoint(Path given) throws java.io.IOException {
    try {
      return Checkpoint.locate(given);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--resume-from: " + e.getMessage(), e);
    }
  }
}
