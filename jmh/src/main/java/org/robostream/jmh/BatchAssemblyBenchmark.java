package org.robostream.jmh;

import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;

/**
 * Batch assembly: one op is one {@link Batch} of 32 samples taken from a {@link StreamingDataset}'s
 * iterator and closed. The dataset has no camera (16 episodes of 120 frames), so that is what the
 * loader adds per batch beyond frames: the rows gathered into Arrow columns (6-dim state and
 * action, indices, timestamps, task strings, is_padding), an empty frame batch exported, the
 * hand-off from the worker thread. Frames are measured apart: decoding (SequentialDecode,
 * RandomAccess), their conversion into slots (ColorConversion), cache reads (FrameCacheRead). One
 * worker; a new epoch starts when one ends (60 batches an epoch; its start is part of the op it
 * falls in).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class BatchAssemblyBenchmark {
  private StreamingDataset ds;
  private Iterator<Batch> batches;

  /** What the ops did, reported beside the time (JMH secondary results). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Counts {
    public long batches;
    public long samples;
    public long epochs;

    @Setup(Level.Iteration)
    public void reset() {
      batches = 0;
      samples = 0;
      epochs = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    ds =
        StreamingDataset.builder(BenchFixtures.tableDataset())
            .batchSize(32)
            .workers(1)
            .shuffle(true)
            .seed(7)
            .build();
    batches = ds.iterator();
  }

  @Benchmark
  public int nextBatch(Counts counts) {
    if (!batches.hasNext()) {
      // The epoch ended: the next one is planned and its worker started, as a trainer's would be.
      ds.setEpoch(ds.epoch() + 1);
      batches = ds.iterator();
      counts.epochs++;
    }
    try (Batch b = batches.next()) {
      counts.batches++;
      counts.samples += b.size();
      return b.size();
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    ds.close();
  }
}
