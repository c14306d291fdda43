package org.robostream.dataset.synth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** v3.0 {@code meta/tasks.parquet} as pandas writes it: the task string is the index column. */
final class TasksTable {
  private TasksTable() {}

  static void write(BufferAllocator allocator, SyntheticDatasetSpec spec, Path file)
      throws IOException {
    int n = Math.min(spec.tasks(), spec.episodes());
    Schema schema =
        new Schema(
            List.of(
                Field.notNullable("task_index", new ArrowType.Int(64, true)),
                Field.notNullable("__index_level_0__", ArrowType.Utf8.INSTANCE)));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      BigIntVector index = (BigIntVector) root.getVector("task_index");
      VarCharVector text = (VarCharVector) root.getVector("__index_level_0__");
      for (int t = 0; t < n; t++) {
        index.setSafe(t, t);
        text.setSafe(t, SyntheticValues.task(t).getBytes(StandardCharsets.UTF_8));
      }
      root.setRowCount(n);
      ParquetTableWriter.write(allocator, schema, List.of(root), file);
    }
  }
}
