package org.robostream.jmh;

import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
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
import org.robostream.arrow.FixedShapeTensorVector;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;

/**
 * Arrow C Data export plus a consumer's import: one op exports one open {@link Batch} (32 samples:
 * the table columns and one 256x256 uint8 camera) with {@link Batch#exportTo} into a consumer's
 * {@code ArrowArray}/{@code ArrowSchema}, imports it with Arrow Java's {@link
 * Data#importVectorSchemaRoot}, checks that the imported frames are the exported memory (the same
 * address: zero copy; a copy fails the op) and closes the import, which releases the consumer's
 * share. The batch is decoded once, before the measurement.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class ArrowExportBenchmark {
  private StreamingDataset ds;
  private Batch batch;
  private BufferAllocator consumer;
  private String camera; // the dataset's one camera
  private long frames; // where the batch's frames are: the import must point there

  /** What the ops did, reported beside the time (JMH secondary results). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Counts {
    public long batches;
    public long rows;
    public long columns;

    @Setup(Level.Iteration)
    public void reset() {
      batches = 0;
      rows = 0;
      columns = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    ds = StreamingDataset.builder(BenchFixtures.cameraDataset()).batchSize(32).workers(1).build();
    Iterator<Batch> it = ds.iterator();
    batch = it.next();
    ds.stopIterating();
    camera = batch.cameras().get(0);
    frames = batch.deviceFrames().frameAddress(batch.deviceFrames().frameColumns().indexOf(camera));
    consumer = new RootAllocator();
  }

  @Benchmark
  public int exportAndImport(Counts counts) {
    try (ArrowArray array = ArrowArray.allocateNew(consumer);
        ArrowSchema schema = ArrowSchema.allocateNew(consumer)) {
      batch.exportTo(array, schema);
      try (VectorSchemaRoot root = Data.importVectorSchemaRoot(consumer, array, schema, null)) {
        FieldVector imported = root.getVector(camera);
        if (!(imported instanceof FixedShapeTensorVector tensor)
            || tensor.tensorAddress(0) != frames) {
          throw new IllegalStateException("the imported frames are not the exported memory");
        }
        counts.batches++;
        counts.rows += root.getRowCount();
        counts.columns += root.getFieldVectors().size();
        return root.getRowCount();
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    batch.close();
    ds.close();
    consumer.close();
  }
}
