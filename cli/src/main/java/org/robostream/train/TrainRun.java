package org.robostream.train;

import ai.djl.Device;
import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.Batch;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Iterator;
import org.robostream.djl.DjlBatch;
import org.robostream.djl.StreamingDjlDataset;
import org.robostream.djl.policy.PolicyConfig;
import org.robostream.djl.policy.PolicyTrainer;
import org.robostream.stream.StreamingDataset;

/**
 * One rank's training run over a built {@link StreamingDataset}: batches through a {@link
 * StreamingDjlDataset} into a {@link PolicyTrainer} (or nowhere with {@code dummy}), a step per
 * loader batch. Padding batches (rows repeating delivered samples so that ranks yield the same
 * number of batches) count as steps but train nothing, so every rank's step k is the same point of
 * the epoch and an elastic resume (another world size) reads rank 0's state correctly.
 *
 * <p>Every {@code logFreq} steps a {@link TrainingMeter} window is printed and appended to the
 * {@link MetricsLog}: samples/s, the share of the window spent waiting for data (inside the data
 * iterator) and the model's step time. Every {@code saveFreq} steps a {@link Checkpoint}, and at
 * the run's last step. The policy is created at the first batch it trains on (sized by the
 * dataset's frame columns), or restored from {@code resumeFrom}'s policy, which must describe the
 * same policy.
 *
 * <p>Not thread-safe: the training thread runs it once.
 */
public final class TrainRun {
  /**
   * What the command decided.
   *
   * @param epochs stop at the end of this epoch (count of epochs completed), or null
   * @param resumeFrom the checkpoint the dataset was resumed from, or null
   * @param record where to append {@code <step> <index>} per delivered sample, or null
   * @param haltAfter fault injection: halt the JVM after this step, or null
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
      Device modelDevice,
      Path resumeFrom,
      PrintWriter record,
      Integer haltAfter) {}

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
    try (NDManager manager = NDManager.newBaseManager(settings.modelDevice())) {
      StreamingDjlDataset djl = StreamingDjlDataset.over(stream).keepPaddingBatches(true).build();
      while (step < settings.steps()
          && (settings.epochs() == null || stream.epoch() < settings.epochs())) {
        if (!epoch(djl, manager)) {
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
    }
  }

  /** The rest of the current epoch (or up to the last step); false when it had no batch. */
  private boolean epoch(StreamingDjlDataset djl, NDManager manager) throws IOException {
    long epoch = stream.epoch();
    Iterator<Batch> batches = djl.getData(manager).iterator();
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
        train((DjlBatch) b);
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
    Checkpoint.write(
        settings.outputDir(),
        rank,
        stream.state(),
        new TrainerState(step, optimizerSteps, settings.seed()),
        trainer);
  }

  private void train(DjlBatch b) throws IOException {
    step++;
    org.robostream.stream.Batch source = b.source();
    boolean padding = source.booleans("is_padding")[0];
    if (settings.record() != null && !padding) {
      for (long index : source.longs("index")) {
        settings.record().println(step + " " + index);
      }
      settings.record().flush();
    }
    if (settings.dummy() || padding) {
      meter.delivered(b.getSize());
      return;
    }
    if (trainer == null) {
      trainer = createOrRestore();
    }
    long start = System.nanoTime();
    float loss = trainer.step(b);
    meter.stepped(b.getSize(), System.nanoTime() - start, loss);
    optimizerSteps++;
  }

  private PolicyTrainer createOrRestore() throws IOException {
    PolicyConfig config =
        PolicyConfig.forDataset(
            stream, settings.actionSteps(), settings.learningRate(), settings.seed());
    if (settings.resumeFrom() == null) {
      return PolicyTrainer.create(config, settings.modelDevice());
    }
    return PolicyTrainer.restore(
        Checkpoint.policyDir(settings.resumeFrom(), rank), config, settings.modelDevice());
  }

  private ObjectNode context() {
    ObjectNode c = MetricsLog.newContext();
    c.put("rank", rank);
    c.put("world_size", world);
    c.put("steps", step);
    c.put("optimizer_steps", optimizerSteps);
    c.put("epoch", stream.epoch());
    c.put("dummy", settings.dummy());
    c.put("model_device", settings.modelDevice().toString());
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
