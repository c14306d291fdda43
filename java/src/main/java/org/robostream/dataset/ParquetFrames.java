package org.robostream.dataset;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.arrow.dataset.file.FileFormat;
import org.apache.arrow.dataset.file.FileSystemDatasetFactory;
import org.apache.arrow.dataset.jni.NativeMemoryPool;
import org.apache.arrow.dataset.scanner.ScanOptions;
import org.apache.arrow.dataset.scanner.Scanner;
import org.apache.arrow.dataset.source.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.VectorSchemaRootAppender;
import org.robostream.RobostreamException;

/**
 * Frame rows of one data Parquet file, read through arrow-dataset with only the columns asked for.
 * Columns that info.json does not declare as features are never read. Reads that callers bound stop
 * before a file holding more rows than expected is loaded (a few bytes of run-length-encoded
 * Parquet can declare billions of rows). Thread-safe (stateless); the returned roots belong to the
 * caller.
 */
public final class ParquetFrames {
  private static final long BATCH_ROWS = 32_768;

  private ParquetFrames() {}

  /** Column names of {@code file}, read from its footer. */
  public static List<String> fileColumns(BufferAllocator allocator, Path file) {
    return schema(allocator, file).getFields().stream().map(Field::getName).toList();
  }

  /** The Arrow schema of {@code file}, read from its footer. */
  public static Schema schema(BufferAllocator allocator, Path file) {
    requireFile(file);
    try (FileSystemDatasetFactory factory = factory(allocator, file)) {
      return factory.inspect();
    } catch (RuntimeException e) {
      throw corrupt(file, e);
    }
  }

  /** Arrow Dataset's reader of the Parquet file {@code file} (checked by {@link #requireFile}). */
  private static FileSystemDatasetFactory factory(BufferAllocator allocator, Path file) {
    return new FileSystemDatasetFactory(
        allocator, NativeMemoryPool.getDefault(), FileFormat.PARQUET, file.toUri().toString());
  }

  /**
   * The declared non-video features that {@code file} holds, in info.json order: what a sample
   * carries as table columns.
   */
  public static List<String> declaredColumns(DatasetInfo info, List<String> fileColumns) {
    Set<String> present = Set.copyOf(fileColumns);
    return info.features().values().stream()
        .filter(f -> !f.isVideo() && !f.isImage() && present.contains(f.name()))
        .map(Feature::name)
        .collect(Collectors.toList());
  }

  /** Reads {@code columns} of every row of {@code file} into one root owned by the caller. */
  public static VectorSchemaRoot read(BufferAllocator allocator, Path file, List<String> columns) {
    return read(allocator, file, columns, Long.MAX_VALUE, "rows");
  }

  /**
   * As {@link #read(BufferAllocator, Path, List)}, refusing a file of more than {@code maxRows}
   * rows before loading them.
   *
   * @param expected what the bound is, for the message ("rows its episodes' lengths add up to")
   */
  public static VectorSchemaRoot read(
      BufferAllocator allocator, Path file, List<String> columns, long maxRows, String expected) {
    VectorSchemaRoot[] result = new VectorSchemaRoot[1];
    try {
      Schema schema =
          scan(
              allocator,
              file,
              columns,
              maxRows,
              expected,
              batch -> {
                if (result[0] == null) {
                  result[0] = VectorSchemaRoot.create(batch.getSchema(), allocator);
                  result[0].allocateNew();
                  result[0].setRowCount(0);
                }
                VectorSchemaRootAppender.append(result[0], batch);
              });
      if (result[0] == null) {
        result[0] = VectorSchemaRoot.create(schema, allocator);
        result[0].setRowCount(0);
      }
      return result[0];
    } catch (RuntimeException e) {
      if (result[0] != null) {
        result[0].close();
      }
      throw e;
    }
  }

  /**
   * Hands each record batch of {@code columns} of {@code file} to {@code eachBatch} (valid only
   * during the call), refusing the file once it holds more than {@code maxRows} rows. Returns the
   * scanned schema.
   */
  public static Schema scan(
      BufferAllocator allocator,
      Path file,
      List<String> columns,
      long maxRows,
      String expected,
      Consumer<VectorSchemaRoot> eachBatch) {
    return scan(
        allocator,
        file,
        columns,
        BATCH_ROWS,
        maxRows,
        expected,
        batch -> {
          eachBatch.accept(batch);
          return true;
        });
  }

  /**
   * As {@link #scan(BufferAllocator, Path, List, long, String, Consumer)} in batches of at most
   * {@code batchRows} rows (columns of large values, such as images, in small batches), stopping
   * after the first batch for which {@code eachBatch} returns false.
   */
  public static Schema scan(
      BufferAllocator allocator,
      Path file,
      List<String> columns,
      long batchRows,
      long maxRows,
      String expected,
      Predicate<VectorSchemaRoot> eachBatch) {
    requireFile(file);
    try (FileSystemDatasetFactory factory = factory(allocator, file);
        Dataset dataset = factory.finish();
        Scanner scanner =
            dataset.newScan(
                new ScanOptions(batchRows, java.util.Optional.of(columns.toArray(String[]::new))));
        ArrowReader reader = scanner.scanBatches()) {
      long rows = 0;
      while (reader.loadNextBatch()) {
        VectorSchemaRoot batch = reader.getVectorSchemaRoot();
        rows += batch.getRowCount();
        if (rows > maxRows) {
          throw new DatasetException.BadMetadata(
              file.toString(), "holds more than the " + maxRows + " " + expected);
        }
        if (!eachBatch.test(batch)) {
          break;
        }
      }
      return reader.getVectorSchemaRoot().getSchema();
    } catch (RobostreamException e) {
      throw e;
    } catch (Exception e) {
      throw corrupt(file, e);
    }
  }

  private static void requireFile(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new DatasetException.MissingFile(file.toString(), "Parquet file does not exist");
    }
  }

  private static DatasetException corrupt(Path file, Exception e) {
    return new DatasetException.CorruptFile(
        file.toString(), "cannot read Parquet: " + e.getMessage(), e);
  }
}
