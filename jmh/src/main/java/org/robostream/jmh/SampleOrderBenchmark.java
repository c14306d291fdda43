package org.robostream.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.robostream.stream.EpisodePiece;
import org.robostream.stream.PlanParameters;
import org.robostream.stream.RankSchedule;
import org.robostream.stream.SegmentPlan;

/**
 * Sample order and sharding of one epoch: one op is a new {@link SegmentPlan} (the seeded episode
 * shuffle and the assignment of whole episodes to rank x worker slots) plus every rank's {@link
 * RankSchedule} (each slot's shuffle-buffer delivery order, cut into batches, padded to even
 * ranks). The pool is {@code episodes} episodes of 300 frames; 8 ranks x 4 workers, batches of 32,
 * a 1,000-sample shuffle buffer over up to 16 open episodes (the loader's defaults). Each op is
 * another epoch, so no order is reused.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class SampleOrderBenchmark {
  private static final int FRAMES = 300;
  private static final int WORLD = 8;
  private static final int WORKERS = 4;

  @Param({"1000"})
  public int episodes;

  private List<EpisodePiece> pool;
  private PlanParameters params;
  private long epoch;

  /** What the ops did, reported beside the time (JMH secondary results). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Counts {
    public long epochs;
    public long batches;
    public long samples;

    @Setup(Level.Iteration)
    public void reset() {
      epochs = 0;
      batches = 0;
      samples = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() {
    pool = new ArrayList<>(episodes);
    for (int e = 0; e < episodes; e++) {
      pool.add(EpisodePiece.whole(e, FRAMES));
    }
    params = new PlanParameters(42, true, 1000, 16, 32, false, PlanParameters.RankBalance.PAD);
  }

  @Benchmark
  public long planEpoch(Counts counts) {
    SegmentPlan plan = new SegmentPlan(pool, params, epoch++, 0, WORLD, WORKERS);
    long samples = 0;
    for (int rank = 0; rank < WORLD; rank++) {
      RankSchedule schedule = plan.schedule(rank);
      for (RankSchedule.Batch b : schedule.batches()) {
        samples += b.samples().length;
      }
      counts.batches += schedule.size();
    }
    counts.epochs++;
    counts.samples += samples;
    if (samples < (long) episodes * FRAMES) {
      throw new IllegalStateException("an epoch scheduled " + samples + " samples");
    }
    return samples;
  }
}
