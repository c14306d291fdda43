package org.robostream.dataset.synth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.dataset.file.DatasetFileWriter;
import org.apache.arrow.dataset.file.FileFormat;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes record batches as one Parquet file through arrow-dataset's writer (Arrow C++ with its
 * defaults: snappy, dictionary encoding). Stateless; the roots stay the caller's.
 */
public final class ParquetTableWriter {
  private static final long RELEASE_WAIT_NANOS = 30_000_000_000L;

  private ParquetTableWriter() {}

  /** Writes {@code batches} (all with {@code schema}) to {@code file}, replacing it. */
  public static void write(
      BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> batches, Path file)
      throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    // The dataset writer writes into a folder under a name pattern: write into a private
    // folder next to the target, then move the one file into place.
    Path staging = Files.createTempDirectory(parent, ".parquet-");
    try {
      try (BufferAllocator handedOver =
          allocator.newChildAllocator("parquet-writer", 0, Long.MAX_VALUE)) {
        try (ArrowReader reader = new BatchListReader(handedOver, schema, batches)) {
          DatasetFileWriter.write(
              handedOver,
              reader,
              FileFormat.PARQUET,
              staging.toUri().toString(),
              new String[0],
              1,
              "part-{i}.parquet");
        }
        awaitReleased(handedOver, file);
      }
      Path written = staging.resolve("part-0.parquet");
      if (!Files.isRegularFile(written)) {
        throw new IOException("arrow-dataset wrote no file for " + file);
      }
      Files.move(written, file, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      try (Stream<Path> left = Files.walk(staging)) {
        for (Path p : left.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /**
   * Waits until the native writer released every batch it was handed. It can release the last one
   * on one of its own threads after {@code write} returned; that late release calls back into Java,
   * and measured here it raced with closing the allocator ("memory leaked", 1 run in 4) and, when
   * the JVM exited meanwhile, deadlocked the exit (the Arrow thread pool's shutdown waited for a
   * thread blocked at the exit safepoint).
   */
  private static void awaitReleased(BufferAllocator handedOver, Path file) throws IOException {
    long deadline = System.nanoTime() + RELEASE_WAIT_NANOS;
    while (handedOver.getAllocatedMemory() > 0) {
      if (System.nanoTime() > deadline) {
        throw new IOException(
            "the Parquet writer still holds "
                + handedOver.getAllocatedMemory()
                + " bytes of its input for "
                + file
                + " after "
                + RELEASE_WAIT_NANOS / 1_000_000_000
                + " s");
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while writing " + file);
      }
    }
  }

  /** Hands existing roots to the writer one after the other (copies of their buffers). */
  private static final class BatchListReader extends ArrowReader {
    private final Schema schema;
    private final List<VectorSchemaRoot> batches;
    private int next;

    BatchListReader(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> batches) {
      super(allocator);
      this.schema = schema;
      this.batches = batches;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      prepareLoadNextBatch();
      if (next >= batches.size()) {
        return false;
      }
      try (ArrowRecordBatch batch = new VectorUnloader(batches.get(next++)).getRecordBatch()) {
        loadRecordBatch(batch);
      }
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return schema;
    }
  }
}
