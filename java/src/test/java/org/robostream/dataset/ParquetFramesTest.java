package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Fixtures;

/** Data Parquet of the real dataset through arrow-dataset, declared columns only, no leaks. */
class ParquetFramesTest {
  @TempDir Path tmp;

  @Test
  void episodeRowsWithDeclaredColumnsOnly() {
    LeRobotMetadata m = LeRobotMetadata.open(Fixtures.sharedDataset(), Optional.of(List.of(1)));
    Path file = m.dataFile(1);
    try (BufferAllocator allocator = new RootAllocator()) {
      List<String> inFile = ParquetFrames.fileColumns(allocator, file);
      List<String> columns = ParquetFrames.declaredColumns(m.info(), inFile);
      assertEquals(
          List.of(
              "observation.state",
              "action",
              "timestamp",
              "frame_index",
              "episode_index",
              "index",
              "task_index"),
          columns);
      try (VectorSchemaRoot rows = ParquetFrames.read(allocator, file, columns)) {
        assertEquals(393, rows.getRowCount());
        assertEquals(columns, rows.getSchema().getFields().stream().map(f -> f.getName()).toList());
        BigIntVector frameIndex = (BigIntVector) rows.getVector("frame_index");
        Float4Vector timestamp = (Float4Vector) rows.getVector("timestamp");
        for (int i = 0; i < rows.getRowCount(); i++) {
          assertEquals(i, frameIndex.get(i));
          assertEquals(i / 30.0, timestamp.get(i), 1e-4);
          assertEquals(1, ((BigIntVector) rows.getVector("episode_index")).get(i));
        }
        var state = rows.getVector("observation.state");
        int width =
            state instanceof FixedSizeListVector f
                ? f.getListSize()
                : ((ListVector) state).getObject(0).size();
        assertEquals(26, width);
      }
      List<String> justTwo = List.of("frame_index", "task_index");
      try (VectorSchemaRoot rows = ParquetFrames.read(allocator, file, justTwo)) {
        assertEquals(justTwo, rows.getSchema().getFields().stream().map(f -> f.getName()).toList());
      }
      assertEquals(0, allocator.getAllocatedMemory());
    }
  }

  @Test
  void undeclaredColumnsAreNotSelected() {
    DatasetInfo info =
        LeRobotMetadata.open(Fixtures.sharedDataset(), Optional.of(List.of(1))).info();
    List<String> columns =
        ParquetFrames.declaredColumns(
            info,
            List.of("timestamp", "extra_debug_column", "observation.images.cam_high", "index"));
    assertEquals(List.of("timestamp", "index"), columns);
    assertFalse(columns.contains("extra_debug_column"));
  }

  @Test
  void missingAndCorruptFilesAreTypedErrors() throws Exception {
    try (BufferAllocator allocator = new RootAllocator()) {
      Path missing = tmp.resolve("nope.parquet");
      DatasetException e =
          assertThrows(
              DatasetException.MissingFile.class,
              () -> ParquetFrames.read(allocator, missing, List.of("index")));
      assertTrue(e.getMessage().contains(missing.toString()));
      Path junk = Files.writeString(tmp.resolve("junk.parquet"), "<html>not parquet</html>");
      DatasetException c =
          assertThrows(
              DatasetException.CorruptFile.class,
              () -> ParquetFrames.read(allocator, junk, List.of("index")));
      assertTrue(c.getMessage().contains(junk.toString()));
      assertEquals(0, allocator.getAllocatedMemory());
    }
  }
}
