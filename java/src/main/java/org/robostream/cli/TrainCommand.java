package org.robostream.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.robostream.bench.DefaultDataset;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;
import org.robostream.train.LinearPolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code robostream train}: distributed, resumable streaming training (the reference's
 * train_streaming_multinode). Rank and world come from the environment (SLURM, torchrun, MPI);
 * each rank streams its own share, no sampler. Every {@code --save-freq} steps each rank writes
 * {@code checkpoint-<step>/rank<r>/dataset_state.json} (rank 0 also the policy); {@code
 * --resume-from} continues from such a folder, exactly where that checkpoint was taken.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
    description = "Stream a dataset into a training loop (a linear policy, or --dummy for pure"
        + " data loading) with periodic resumable checkpoints.")
final class TrainCommand implements Callable<Integer> {
  @Option(names = "--root", description = "dataset root (default: the built-in dataset), or a"
      + " Hub dataset as hf://datasets/OWNER/NAME[@REVISION] streamed from HF_ENDPOINT")
  String root;

  @Option(names = {"--output-dir", "--output_dir"}, defaultValue = "outputs/train")
  Path outputDir;

  @Option(names = "--steps", defaultValue = "1000") int steps;

  @Option(names = "--epochs", description = "stop at the end of this epoch (0-based count of"
      + " epochs completed), even before --steps")
  Integer epochs;

  @Option(names = {"--batch-size", "--batch_size"}, defaultValue = "64") int batchSize;

  @Option(names = {"--num-workers", "--num_workers"}, defaultValue = "2") int workers;

  @Option(names = {"--buffer-size", "--buffer_size"}, defaultValue = "2000") int bufferSize;

  @Option(names = {"--n-action-steps", "--n_action_steps"}, defaultValue = "16")
  int actionSteps;

  @Option(names = {"--save-freq", "--save_freq"}, defaultValue = "200") int saveFreq;

  @Option(names = {"--log-freq", "--log_freq"}, defaultValue = "20") int logFreq;

  @Option(names = {"--resume-from", "--resume_from"}) Path resumeFrom;

  @Option(names = "--dummy", description = "pure data loading, no model") boolean dummy;

  @Option(names = "--seed", defaultValue = "42") long seed;

  @Option(names = "--record-indices", description = "append '<step> <index>' per delivered"
      + " sample (padding excluded) to this file: for tests and audits")
  Path recordIndices;

  @Option(names = "--halt-after-step", hidden = true,
      description = "fault injection for tests: halt the JVM abruptly after this step")
  Integer haltAfter;

  @Override
  public Integer call() throws Exception {
    org.robostream.source.hub.HubLocation hubRoot = HubRoot.of(root, null, null);
    org.robostream.source.hub.HubDataset hub = hubRoot == null ? null : Prewarm.prepare(
        hubRoot.id(), hubRoot.revision(), null, java.util.Optional.empty());
    Path dataset = hub != null ? hub.metadataRoot()
        : root != null ? Path.of(root) : DefaultDataset.ensure(50, 200);
    double[] deltas = new double[actionSteps];
    StreamingDataset.Builder builder = (hub != null ? StreamingDataset.builder(hub)
        : StreamingDataset.builder(dataset)).batchSize(batchSize)
        .workers(workers).bufferSize(bufferSize).seed(seed).returnUint8(true)
        .toleranceSeconds(1e-3);
    int fps = org.robostream.dataset.DatasetInfo.read(dataset.resolve("meta/info.json")).fps();
    for (int t = 0; t < actionSteps; t++) {
      deltas[t] = t / (double) fps;
    }
    builder.deltaTimestamps(Map.of("action", deltas));
    int step = 0;
    if (resumeFrom != null) {
      builder.resumeFrom(Files.readString(stateFile(resumeFrom)));
      step = Integer.parseInt(Files.readString(resumeFrom.resolve("step")).strip());
    }
    try (StreamingDataset ds = builder.build();
        PrintWriter record = recordIndices == null ? null
            : new PrintWriter(Files.newBufferedWriter(recordIndices,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND))) {
      int rank = ds.rankWorld().rank();
      int world = ds.rankWorld().world();
      LinearPolicy policy = null;
      double scale = 0;
      if (!dummy) {
        int stateDim = ds.metadata().info().features().get("observation.state").shape()[0];
        int actionDim = ds.metadata().info().features().get("action").shape()[0];
        policy = new LinearPolicy(stateDim, actionDim, 0.1);
        if (resumeFrom != null && Files.exists(resumeFrom.resolve("policy.json"))) {
          policy.load(resumeFrom.resolve("policy.json"));
        }
      }
      System.out.printf("rank %d of %d (%s), starting at step %d, epoch %d%n", rank, world,
          ds.rankWorld().source(), step, ds.epoch());
      long windowStart = System.nanoTime();
      long windowFrames = 0;
      double loss = Double.NaN;
      int cameras = Math.max(1, ds.metadata().info().videoKeys().size());
      outer:
      while (step < steps && (epochs == null || ds.epoch() < epochs)) {
        for (Batch b : ds) {
          try (b) {
            step++;
            windowFrames += (long) b.size() * cameras;
            if (record != null && !b.booleans("is_padding")[0]) {
              for (long index : b.longs("index")) {
                record.println(step + " " + index);
              }
              record.flush();
            }
            if (policy != null) {
              double[] states = b.doubles("observation.state");
              double[] actions = firstActions(b.doubles("action"), b.size(), actionSteps);
              if (scale == 0) {
                double max = 1;
                for (double v : states) {
                  max = Math.max(max, Math.abs(v));
                }
                scale = 1 / max;
              }
              loss = policy.step(states, actions, b.size(), scale);
            }
          }
          if (step % logFreq == 0) {
            double seconds = (System.nanoTime() - windowStart) / 1e9;
            double perProc = windowFrames / seconds;
            System.out.printf(Locale.ROOT, "step %d | %.1f frames/s/proc | %.1f frames/s total%s%n",
                step, perProc, perProc * world,
                policy == null ? "" : String.format(Locale.ROOT, " | loss %.6f", loss));
            windowStart = System.nanoTime();
            windowFrames = 0;
          }
          if (step % saveFreq == 0) {
            checkpoint(ds, policy, step, rank);
          }
          if (haltAfter != null && step == haltAfter) {
            Runtime.getRuntime().halt(137);
          }
          if (step >= steps) {
            break outer;
          }
        }
      }
      System.out.printf("done: %d steps, epoch %d, rank %d%n", step, ds.epoch(), rank);
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

  private void checkpoint(StreamingDataset ds, LinearPolicy policy, int step, int rank)
      throws IOException {
    Path dir = outputDir.resolve("checkpoint-" + step);
    Path rankDir = dir.resolve("rank" + rank);
    Files.createDirectories(rankDir);
    // Written to a temporary name and moved, so a crash never leaves a half state behind.
    Path tmp = rankDir.resolve("dataset_state.json.tmp");
    Files.writeString(tmp, ds.state());
    Files.move(tmp, rankDir.resolve("dataset_state.json"),
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    Files.writeString(dir.resolve("step"), Integer.toString(step));
    if (policy != null && rank == 0) {
      policy.save(dir.resolve("policy.json"));
    }
  }

  /** This rank's state in a checkpoint, else rank 0's (every rank of a checkpoint has the same). */
  private static Path stateFile(Path checkpoint) throws IOException {
    String rank = System.getenv().getOrDefault("SLURM_PROCID",
        System.getenv().getOrDefault("RANK", "0"));
    Path own = checkpoint.resolve("rank" + rank.strip()).resolve("dataset_state.json");
    if (Files.isRegularFile(own)) {
      return own;
    }
    Path first = checkpoint.resolve("rank0").resolve("dataset_state.json");
    if (!Files.isRegularFile(first)) {
      throw new IOException(checkpoint + " holds no dataset_state.json (rank" + rank
          + "/ or rank0/)");
    }
    return first;
  }
}
