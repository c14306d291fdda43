package org.robostream.train;

import java.util.Locale;

/**
 * What a trainer needs to know about each logging window: samples per second, the fraction of the
 * window's wall time spent waiting for data (inside the data iterator: the loader is the bottleneck
 * when it is large), and the model's mean step time (forward, backward, optimizer). Samples are the
 * benchmark's frames (one timestep with all its cameras), so samples/s compares with {@code
 * robostream bench}'s frames_per_s_node. Not thread-safe: the training loop owns it.
 */
public final class TrainingMeter {
  /** One window's numbers, as the log line and the metrics file give them. */
  public record Window(
      int step,
      long epoch,
      double seconds,
      long samples,
      double samplesPerSecond,
      double samplesPerSecondTotal,
      double dataWaitFraction,
      double modelStepMs,
      int modelSteps,
      double loss,
      double allReduceMs,
      double allReduceFraction) {
    /**
     * {@code step N | X frames/s/proc | Y frames/s total | data wait P% | model M ms/step[ |
     * all-reduce A ms/step (S%)][ | loss L]}: the all-reduce part when gradients were averaged
     * across ranks in the window, per step that took part (padding steps too) and as a share of the
     * window's wall time; for steps that trained it is also inside the model's step time.
     */
    public String line() {
      return String.format(
          Locale.ROOT,
          "step %d | %.1f frames/s/proc | %.1f frames/s total | data wait %.1f%% | model %.1f"
              + " ms/step%s%s",
          step,
          samplesPerSecond,
          samplesPerSecondTotal,
          100 * dataWaitFraction,
          modelStepMs,
          allReduceFraction > 0
              ? String.format(
                  Locale.ROOT,
                  " | all-reduce %.1f ms/step (%.1f%%)",
                  allReduceMs,
                  100 * allReduceFraction)
              : "",
          Double.isNaN(loss) ? "" : String.format(Locale.ROOT, " | loss %.6f", loss));
    }
  }

  private long windowStart = System.nanoTime();
  private long samples;
  private long waitNanos;
  private long modelNanos;
  private int modelSteps;
  private double lossSum;
  private long allReduceNanos;
  private int syncSteps; // steps that took part in an all-reduce, padding steps included
  // The run after its first window (which holds the engine's start and the first batches' fill).
  private int windows;
  private double steadySeconds;
  private long steadySamples;
  private long steadyWaitNanos;
  private long steadyModelNanos;
  private int steadyModelSteps;
  private long steadyAllReduceNanos;
  private int steadySyncSteps;
  private double lastLoss = Double.NaN;

  /** Time spent getting the next batch (the data iterator's hasNext + next). */
  public void waited(long nanos) {
    waitNanos += nanos;
  }

  /**
   * One training step of {@code batchSamples} samples that took {@code nanos} in the model
   * (forward, backward, optimizer, the loss read back) and whose loss was {@code loss}.
   */
  public void stepped(int batchSamples, long nanos, double loss) {
    samples += batchSamples;
    modelNanos += nanos;
    modelSteps++;
    lossSum += loss;
  }

  /**
   * Time one step spent averaging gradients across ranks ({@code nanos}, already inside the step's
   * model time), for a step that trained or a padding step that only took part.
   */
  public void allReduced(long nanos) {
    allReduceNanos += nanos;
    syncSteps++;
  }

  /** A batch delivered without a model step (--dummy, or a padding batch). */
  public void delivered(int batchSamples) {
    samples += batchSamples;
  }

  /**
   * Closes the window that ends now and starts the next one; its loss is the mean of its steps'
   * losses (NaN when no model step ran in it).
   */
  public Window close(int step, long epoch, int world) {
    long now = System.nanoTime();
    double seconds = (now - windowStart) / 1e9;
    Window w =
        window(
            step,
            epoch,
            world,
            seconds,
            samples,
            waitNanos,
            modelNanos,
            modelSteps,
            modelSteps == 0 ? Double.NaN : lossSum / modelSteps,
            allReduceNanos,
            syncSteps);
    lastLoss = w.loss();
    if (windows++ > 0) {
      steadySeconds += seconds;
      steadySamples += samples;
      steadyWaitNanos += waitNanos;
      steadyModelNanos += modelNanos;
      steadyModelSteps += modelSteps;
      steadyAllReduceNanos += allReduceNanos;
      steadySyncSteps += syncSteps;
    }
    allReduceNanos = 0;
    syncSteps = 0;
    windowStart = now;
    samples = 0;
    waitNanos = 0;
    modelNanos = 0;
    modelSteps = 0;
    lossSum = 0;
    return w;
  }

  /**
   * The run so far without its first window (engine start, the first batches' fill), as one window
   * ending at {@code step} with the last window's loss; null until a second window has closed.
   */
  public Window steadyState(int step, long epoch, int world) {
    if (windows < 2) {
      return null;
    }
    return window(
        step,
        epoch,
        world,
        steadySeconds,
        steadySamples,
        steadyWaitNanos,
        steadyModelNanos,
        steadyModelSteps,
        lastLoss,
        steadyAllReduceNanos,
        steadySyncSteps);
  }

  private static Window window(
      int step,
      long epoch,
      int world,
      double seconds,
      long samples,
      long waitNanos,
      long modelNanos,
      int modelSteps,
      double loss,
      long allReduceNanos,
      int syncSteps) {
    double perProc = samples / seconds;
    return new Window(
        step,
        epoch,
        seconds,
        samples,
        perProc,
        perProc * world,
        Math.min(1.0, waitNanos / 1e9 / seconds),
        modelSteps == 0 ? 0 : modelNanos / 1e6 / modelSteps,
        modelSteps,
        loss,
        syncSteps == 0 ? 0 : allReduceNanos / 1e6 / syncSteps,
        Math.min(1.0, allReduceNanos / 1e9 / seconds));
  }
}
