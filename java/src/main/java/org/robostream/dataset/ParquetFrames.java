package org.robostream.dataset;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
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

/**
 * Frame rows of one data Parquet file, read through arrow-dataset with only the columns asked
 * for. Columns that info.json does not declare as features are never read. Thread-safe
 * (stateless); the returned roots belong to the caller.
 */
public final class ParquetFrames {
  private static final long BATCH_ROWS = 32_768;

  private ParquetFrames() {}

  /** Column names of {@code file}, read from its footer. */
  public static List<String> fileColumns(BufferAllocator allocator, Path file) {
    requireFile(file);
    try (FileSystemDatasetFactory factory = new FileSystemDatasetFactory(allocator,
        NativeMemoryPool.getDefault(), FileFormat.PARQUET, file.toUri().toString())) {
      Schema schema = factory.inspect();
      return schema.getFields().stream().map(Field::getName).toList();
    } catch (RuntimeException e) {
      throw corrupt(file, e);
    }
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
    requireFile(file);
    try (FileSystemDatasetFactory factory = new FileSystemDatasetFactory(allocator,
            NativeMemoryPool.getDefault(), FileFormat.PARQUET, file.toUri().toString());
        Dataset dataset = factory.finish();
        Scanner scanner = dataset.newScan(new ScanOptions(BATCH_ROWS,
            java.util.Optional.of(columns.toArray(String[]::new))));
        ArrowReader reader = scanner.scanBatches()) {
      VectorSchemaRoot result = null;
      try {
        while (reader.loadNextBatch()) {
          VectorSchemaRoot batch = reader.getVectorSchemaRoot();
          if (result == null) {
            result = VectorSchemaRoot.create(batch.getSchema(), allocator);
            result.allocateNew();
            result.setRowCount(0);
          }
          VectorSchemaRootAppender.append(result, batch);
        }
        if (result == null) {
          result = VectorSchemaRoot.create(reader.getVectorSchemaRoot().getSchema(), allocator);
          result.setRowCount(0);
        }
        return result;
      } catch (RuntimeException e) {
        if (result != null) {
          result.close();
        }
        throw e;
      }
    } catch (DatasetException e) {
      throw e;
    } catch (Exception e) {
      throw corrupt(file, e);
    }
  }

  private static void requireFile(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new DatasetException.MissingFile(file.toString(), "data file does not exist");
    }
  }

  private static DatasetException corrupt(Path file, Exception e) {
    return new DatasetException.CorruptFile(file.toString(), "cannot read Parquet: "
        + e.getMessage(), e);
  }
}
