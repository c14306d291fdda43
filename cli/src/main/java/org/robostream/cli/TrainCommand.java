package org.robostream.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.Callable;
import org.robostream.bench.FrameCacheReport;
import org.robostream.dataset.DatasetInfo;
import org.robostream.dataset.DatasetSource;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;
import org.robostream.train.Checkpoint;
import org.robostream.train.LinearPolicy;
import org.robostream.train.Throughput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code robostream train}: distributed, resumable streaming training (the reference's
 * train_streaming_multinode). Rank and world come from the environment (SLURM, torchrun, MPI); each
 * rank streams its own share, no sampler. Each rank trains its own {@link LinearPolicy} on its
 * share: there is no gradient all-reduce (the example shows data loading feeding an optimisation
 * loop, not a distributed optimiser); rank 0's policy is the saved model. Every {@code --save-freq}
 * steps each rank writes its dataset state and policy (see {@link Checkpoint}); {@code
 * --resume-from} continues from such a folder exactly as the uninterrupted run would have: same
 * samples, same parameters, same losses.
 */
@Command(
    name = "train",
    mixinStandardHelpOptions = true,
    description =
        "Stream a dataset into a training loop (a linear policy per rank, or --dummy"
            + " for pure data loading) with periodic resumable checkpoints.")
final class TrainCommand implements Callable<Integer> {
  @Mixin DatasetOptions dataset;

  @Mixin DecodeOptions decode;

  @Mixin ResizeOptions resize;

  @Mixin FrameCacheFlag frameCache;

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

  @Option(
      names = {"--batch-size", "--batch_size"},
      defaultValue = "64")
  int batchSize;

  @Option(
      names = {"--num-workers", "--num_workers"},
      defaultValue = "2")
  int workers;

  @Option(
      names = {"--buffer-size", "--buffer_size"},
      defaultValue = "2000")
  int bufferSize;

  @Option(
      names = {"--drop-last", "--drop_last"},
      description =
          "drop each worker's last partial"
              + " batch, as the reference's DataLoader does (default: keep it, so an epoch delivers every"
              + " sample exactly once)")
  boolean dropLast;

  @Option(
      names = {"--n-action-steps", "--n_action_steps"},
      defaultValue = "16")
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

  @Option(names = "--seed", defaultValue = "42")
  long seed;

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

  @Override
  public Integer call() throws Exception {
    for (int v : new int[] {batchSize, saveFreq, logFreq, actionSteps}) {
      if (v <= 0) {
        throw new IllegalArgumentException(
            "--batch-size, --save-freq, --log-freq and" + " --n-action-steps must be positive");
      }
    }
    decode.device(); // a typo is an exit 2 before the dataset is prepared
    resize.check();
    frameCache.options();
    if (resumeFrom != null) {
      resumeFrom = locateCheckpoint(resumeFrom);
    }
    DatasetSource opened = dataset.open(50, 200);
    DatasetInfo info = opened.metadata().info();
    int fps = info.fps();
    double[] deltas = new double[actionSteps];
    for (int t = 0; t < actionSteps; t++) {
      deltas[t] = t / (double) fps;
    }
    StreamingDataset.Builder builder =
        StreamingDataset.builder(opened)
            .batchSize(batchSize)
            .workers(workers)
            .bufferSize(bufferSize)
            .seed(seed)
            .dropLast(dropLast)
            .returnUint8(true)
            .toleranceSeconds(1e-3)
            .deltaTimestamps(Map.of("action", deltas));
    decode.applyTo(builder);
    resize.applyTo(builder);
    frameCache.applyTo(builder);
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
      LinearPolicy policy = null;
      if (!dummy) {
        int stateDim = info.features().get("observation.state").shape()[0];
        int actionDim = info.features().get("action").shape()[0];
        policy = new LinearPolicy(stateDim, actionDim, 0.1);
        if (resumeFrom != null) {
          policy.load(Checkpoint.policyFile(resumeFrom, rank));
        }
      }
      System.out.printf(
          "rank %d of %d (%s), starting at step %d, epoch %d%n",
          rank, world, ds.rankWorld().source(), step, ds.epoch());
      Throughput throughput = new Throughput();
      double loss = Double.NaN;
      outer:
      while (step < steps && (epochs == null || ds.epoch() < epochs)) {
        long epoch = ds.epoch();
        boolean any = false;
        for (Batch b : ds) {
          any = true;
          try (b) {
            step++;
            throughput.add(b.size());
            if (record != null && !b.booleans("is_padding")[0]) {
              for (long index : b.longs("index")) {
                record.println(step + " " + index);
              }
              record.flush();
            }
            if (policy != null) {
              loss =
                  policy.step(
                      b.doubles("observation.state"),
                      firstActions(b.doubles("action"), b.size(), actionSteps),
                      b.size());
            }
          }
          if (step % logFreq == 0) {
            System.out.println(throughput.line(step, world, loss));
          }
          if (step % saveFreq == 0) {
            Checkpoint.write(outputDir, step, rank, ds.state(), policy);
          }
          if (haltAfter != null && step == haltAfter) {
            Runtime.getRuntime().halt(137);
          }
          if (step >= steps) {
            break outer;
          }
        }
        if (!any) {
          // Every rank yields the same number of batches, so all ranks stop here together.
          System.err.printf(
              "robostream train: epoch %d delivered no batch to rank %d of %d"
                  + " (%d frames in the dataset, batch size %d%s): use a smaller --batch-size or fewer"
                  + " ranks or workers%n",
              epoch,
              rank,
              world,
              ds.metadata().info().totalFrames(),
              batchSize,
              dropLast ? ", partial batches dropped" : "");
          return 3;
        }
      }
      System.out.printf("done: %d steps, epoch %d, rank %d%n", step, ds.epoch(), rank);
      if (frameCache.spec != null) {
        // One line, as bench's config line: a launcher's log is read line by line.
        String stats =
            Json.MAPPER.writeValueAsString(
                FrameCacheReport.block(frameCache.spec, ds.frameCacheStats()));
        System.out.println("frame_cache " + stats.replace('\n', ' '));
      }
    }
    return 0;
  }

  /** Action [n, T, D] flattened → the first step of each chunk, [n, D]. */
  private static double[] firstActions(double[] actions, int n, int steps) {
    int d = actions.length / n / steps;
    double[] out = new double[n * d];
    for (int i = 0; i < n; i++) {
      System.arraycopy(actions, i * steps * d, out, i * d, d);
    }
    return out;
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
