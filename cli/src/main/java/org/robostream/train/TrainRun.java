package org.robostream.train;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import org.bytedeco.pytorch.Device;
import org.robostream.policy.PolicyConfig;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;
import org.robostream.torch.dist.DataParallel;
import org.robostream.torch.dist.JobCheck;
import org.robostream.torch.dist.Rendezvous;
import org.robostream.torch.policy.PolicyTrainer;

/**
 * One rank's training run: a built {@link StreamingDataset}'s batches into a {@link PolicyTrainer}
 * (or nowhere with {@code dummy}), a step per batch. With several ranks, gradients are averaged
 * every step ({@link DataParallel}) after the ranks meet ({@link Rendezvous#fromEnvironment}).
 * Padding batches train nothing but join the all-reduce with weight 0, so every rank's step k is
 * the same point and update, and an elastic resume can read rank 0's state.
 *
 * <p>Every {@code logFreq} steps a {@link TrainingMeter} window goes to stdout and the {@link
 * MetricsLog}; every {@code saveFreq} steps, and at the last, a {@link Checkpoint}. A policy from
 * {@code resumeFrom} must be the same policy. Not thread-safe: the training thread runs it once.
 */
public final class TrainRun {
  /**
   * What the command decided.
   *
   * @param epochs stop at the end of this epoch (count of epochs completed), or null
   * @param resumeFrom the checkpoint the dataset was resumed from, or null
   * @param record where to append {@code <step> <index>} per delivered sample, or null
   * @param haltAfter fault injection: halt the JVM after this step, or null
   * @param shared the settings every rank of the job must have (the command's flags but a rank's
   *     own); compared at the rendezvous with the loader's parameters and the dataset's identity
   */
  public record Settings(
      Path outputDir,
      int steps,
      Integer epochs,
      int actionSteps,
      int saveFreq,
      int logFreq,
      boolean dummy,
      long seed,
      float learningRate,
      String modelDevice,
      Duration distTimeout,
      Path resumeFrom,
      PrintWriter record,
      Integer haltAfter,
      java.util.SortedMap<String, String> shared) {}

  /** How the run ended. */
  public enum Outcome {
    DONE,
    /** An epoch delivered no batch to this rank: nothing can be trained. */
    EMPTY_EPOCH
  }

  private final StreamingDataset stream;
  private final Settings settings;
  private final PrintStream out;
  private final int rank;
  private final int world;
  private final TrainingMeter meter = new TrainingMeter();
  private final MetricsLog metrics;
  private PolicyTrainer trainer;
  private DataParallel group;
  private long emptyEpoch = -1;
  private long optimizerSteps;
  private int step;

  public TrainRun(StreamingDataset stream, Settings settings, int startStep, PrintStream out)
      throws IOException {
    this.stream = stream;
    this.settings = settings;
    this.out = out;
    this.rank = stream.rankWorld().rank();
    this.world = stream.rankWorld().world();
    this.step = startStep;
    this.metrics = new MetricsLog(settings.outputDir(), rank);
    if (settings.resumeFrom() != null) {
      TrainerState saved =
          TrainerState.load(Checkpoint.trainerStateFile(settings.resumeFrom(), rank));
      if (saved.seed() != settings.seed()) {
        throw new IllegalArgumentException(
            "--seed "
                + settings.seed()
                + " but checkpoint "
                + settings.resumeFrom()
                + " was trained with --seed "
                + saved.seed()
                + ": the weights, the data order and the image transforms all follow the seed");
      }
      optimizerSteps = saved.optimizerSteps();
      if (saved.worldSize() > 0 && saved.worldSize() != world && !settings.dummy()) {
        out.printf(
            "resuming a run of %d rank(s) with %d: the data continues exactly once from the"
                + " checkpoint; every rank starts from rank 0's weights and Adam state, and each step"
                + " now averages %d ranks' gradients, so the effective batch changes from %d to %d"
                + " x --batch-size (the learning rate is not rescaled)%n",
            saved.worldSize(), world, world, saved.worldSize(), world);
      }
    }
  }

  public int step() {
    return step;
  }

  /** The epoch that delivered no batch ({@link Outcome#EMPTY_EPOCH}), else -1. */
  public long emptyEpoch() {
    return emptyEpoch;
  }

  /** Runs to {@code steps} or the end of epoch {@code epochs}. */
  public Outcome run() throws IOException {
    try {
      if (!settings.dummy()) {
        Rendezvous rendezvous = Rendezvous.fromEnvironment(stream.rankWorld(), System.getenv());
        Device device = PolicyTrainer.device(settings.modelDevice(), rendezvous.localRank());
        out.printf("rank %d: policy on %s%n", rank, device.str().getString());
        group = joinRanks(rendezvous, device);
        if (world > 1) {
          Checkpoint.checkShared(settings.outputDir(), group);
        }
        trainer = createOrRestore(device);
      }
      while (step < settings.steps()
          && (settings.epochs() == null || stream.epoch() < settings.epochs())) {
        if (!epoch()) {
          return Outcome.EMPTY_EPOCH;
        }
      }
      if (step > 0 && step % settings.saveFreq() != 0) {
        // The run's last step is always a checkpoint (as LeRobot's trainer saves at its end), so
        // the final policy is never lost to a --save-freq that does not divide --steps.
        checkpoint();
      }
      TrainingMeter.Window steady = meter.steadyState(step, stream.epoch(), world);
      metrics.summarize(steady, context());
      return Outcome.DONE;
    } finally {
      if (trainer != null) {
        trainer.close();
      }
      if (group != null) {
        group.close();
      }
    }
  }

  /** The other ranks, met at the launcher's rendezvous (nobody for a world of one). */
  private DataParallel joinRanks(Rendezvous rendezvous, Device device) throws IOException {
    if (rendezvous.world() > 1) {
      out.printf(
          "%s: waiting up to %d s for every rank (--dist-timeout)%n",
          rendezvous.describe(), settings.distTimeout().toSeconds());
    }
    if (rendezvous.world() == 1) {
      return DataParallel.join(rendezvous, DataParallel.Backend.GLOO, settings.distTimeout(), null);
    }
    // What every rank must share: the command's flags, and the loader's parameters, position
    // and dataset identity (the state every rank holds alike; a dataset's path may differ by node).
    java.util.SortedMap<String, String> shared = new java.util.TreeMap<>(settings.shared());
    com.fasterxml.jackson.databind.JsonNode state =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(stream.state());
    state
        .fields()
        .forEachRemaining(f -> shared.put("loader " + f.getKey(), f.getValue().toString()));
    JobCheck job = JobCheck.of(System.getenv(), Path.of(System.getProperty("user.home")), shared);
    if (!job.origin().equals(JobCheck.ENV)) {
      out.printf(
          "rank %d: the job's secret is %s (no %s): every rank must read this same file%n",
          rank, job.origin(), JobCheck.ENV);
    }
    return DataParallel.join(
        rendezvous,
        device.is_cuda() ? DataParallel.Backend.NCCL : DataParallel.Backend.GLOO,
        settings.distTimeout(),
        job);
  }

  /** The rest of the current epoch (or up to the last step); false when it had no batch. */
  private boolean epoch() throws IOException {
    long epoch = stream.epoch();
    Iterator<Batch> batches = stream.iterator();
    boolean any = false;
    while (step < settings.steps()) {
      long asked = System.nanoTime();
      boolean more = batches.hasNext();
      Batch b = more ? batches.next() : null;
      meter.waited(System.nanoTime() - asked);
      if (!more) {
        break;
      }
      any = true;
      try (b) {
        train(b);
      }
      if (step % settings.logFreq() == 0) {
        TrainingMeter.Window w = meter.close(step, stream.epoch(), world);
        out.println(w.line());
        metrics.append(w);
      }
      if (step % settings.saveFreq() == 0) {
        checkpoint();
      }
      if (settings.haltAfter() != null && step == settings.haltAfter()) {
        out.flush();
        Runtime.getRuntime().halt(137);
      }
    }
    if (!any) {
      emptyEpoch = epoch;
    }
    return any;
  }

  private void checkpoint() throws IOException {
    TrainerState state = new TrainerState(step, optimizerSteps, settings.seed(), world);
    Path out = settings.outputDir();
    if (group != null && world > 1) {
      // Rank 0 makes the staging folder before any rank writes, and renames it into place once
      // every rank's part is on disk: a job killed meanwhile leaves the previous checkpoint.
      if (rank == 0) {
        Checkpoint.stage(out, step);
      }
      group.barrier("checkpoint " + step + " staged");
      Checkpoint.writeRank(out, rank, stream.state(), state, trainer);
      group.barrier("checkpoint " + step);
      if (rank == 0) {
        Checkpoint.publish(out, step, world);
      }
    } else if (world > 1) {
      // --dummy ranks meet nobody: each writes its part in place.
      Checkpoint.writeRankInPlace(out, rank, stream.state(), state);
    } else {
      Checkpoint.write(out, rank, stream.state(), state, trainer);
    }
  }

  private void train(Batch b) throws IOException {
    step++;
    boolean padding = b.booleans("is_padding")[0];
    if (settings.record() != null && !padding) {
      for (long index : b.longs("index")) {
        settings.record().println(step + " " + index);
      }
      settings.record().flush();
    }
    if (settings.dummy()) {
      meter.delivered(b.size());
      return;
    }
    long allReduced = group.allReduceNanos();
    long start = System.nanoTime();
    if (padding) {
      trainer.stepWithoutBatch();
      meter.delivered(b.size());
    } else {
      float loss = trainer.step(b);
      meter.stepped(b.size(), System.nanoTime() - start, loss);
    }
    if (group.world() > 1) {
      meter.allReduced(group.allReduceNanos() - allReduced);
    }
    optimizerSteps = trainer.optimizerSteps();
  }

  private PolicyTrainer createOrRestore(Device device) throws IOException {
    PolicyTrainer t = createOrRestoreTrainer(device);
    if (settings.resumeFrom() != null && t.optimizerSteps() != optimizerSteps) {
      long restored = t.optimizerSteps();
      t.close();
      throw new IOException(
          "checkpoint "
              + settings.resumeFrom()
              + ": its trainer state counts "
              + optimizerSteps
              + " optimizer steps but its policy's Adam state "
              + restored
              + ": the files come from different runs");
    }
    return t;
  }

  private PolicyTrainer createOrRestoreTrainer(Device device) throws IOException {
    PolicyConfig config =
        PolicyConfig.forDataset(
            stream, settings.actionSteps(), settings.learningRate(), settings.seed());
    if (settings.resumeFrom() == null) {
      return PolicyTrainer.create(config, device, group);
    }
    return PolicyTrainer.restore(
        Checkpoint.policyDir(settings.resumeFrom(), rank), config, device, group);
  }

  private ObjectNode context() {
    ObjectNode c = MetricsLog.newContext();
    c.put("rank", rank);
    c.put("world_size", world);
    c.put("steps", step);
    c.put("optimizer_steps", optimizerSteps);
    c.put("epoch", stream.epoch());
    c.put("dummy", settings.dummy());
    c.put("model_device", trainer == null ? "none" : trainer.device().str().getString());
    c.put("seed", settings.seed());
    c.put("learning_rate", settings.learningRate());
    c.put("n_action_steps", settings.actionSteps());
    c.put("dataset", stream.metadata().root().toString());
    c.put("cameras", String.join(",", stream.metadata().cameras()));
    c.put("metrics_file", metrics.linesFile().toString());
    return c;
  }

  /** The metrics files of this run (for the command's last line). */
  public Path metricsSummary() {
    return metrics.summaryFile();
  }
}
