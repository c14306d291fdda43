package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.testing.MetadataEdit;
import org.robostream.testing.ParquetEdit;

/**
 * Metadata values of the wrong type or size: each a typed error naming the file and the field
 * (never a NullPointerException, an OutOfMemoryError or a silently truncated number), or it works.
 */
class MetadataValuesTest {
  @TempDir Path tmp;

  /** Streams every batch; the typed error of the first failure comes out. */
  static int streamAll(Path root) {
    int samples = 0;
    try (StreamingDataset ds =
        StreamingDataset.builder(root).batchSize(8).shuffle(false).returnUint8(true).build()) {
      for (Batch b : ds) {
        try (b) {
          samples += b.size();
        }
      }
    }
    return samples;
  }

  static void assertNames(RuntimeException e, String... words) {
    for (String w : words) {
      assertTrue(e.getMessage().contains(w), "'" + w + "' missing from: " + e.getMessage());
    }
  }

  @Test
  void aDataEpisodeIndexOfFloatsOrStringsIsATypedErrorNamingTheColumn() throws Exception {
    for (ArrowType type : List.of(ParquetEdit.FLOAT64, ParquetEdit.UTF8)) {
      Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
      String data = "data/chunk-000/episode_000001.parquet";
      ParquetEdit.rewrite(root.resolve(data), t -> t.retype("episode_index", type));
      DatasetException e = assertThrows(DatasetException.class, () -> streamAll(root));
      assertNames(
          e,
          data,
          "episode_index",
          "int64",
          type instanceof ArrowType.Utf8 ? "Utf8" : "FloatingPoint");
      org.robostream.testing.Fixtures.deleteTree(root);
    }
  }

  @Test
  void aDataFrameIndexOfStringsIsATypedErrorNamingTheColumn() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV30());
    String data = "data/chunk-000/file-000.parquet";
    ParquetEdit.rewrite(root.resolve(data), t -> t.retype("frame_index", ParquetEdit.UTF8));
    DatasetException e = assertThrows(DatasetException.class, () -> streamAll(root));
    assertNames(e, data, "frame_index", "int64", "Utf8");
  }

  @Test
  void aHugeV21LengthIsATypedErrorNotAnOutOfMemoryError() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
    MetadataEdit.episodeField(root, 0, "length", "2000000000");
    DatasetException e = assertThrows(DatasetException.class, () -> streamAll(root));
    assertNames(e, "episode 0", "length", "2000000000");
  }

  @Test
  void aHugeV30LengthIsATypedErrorNotAnOutOfMemoryError() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV30());
    ParquetEdit.rewrite(
        root.resolve("meta/episodes/chunk-000/file-000.parquet"),
        t -> t.set("length", 2, 2_000_000_000));
    DatasetException e = assertThrows(DatasetException.class, () -> streamAll(root));
    assertNames(e, "episodes", "episode 2", "length", "2000000000");
  }

  @Test
  void templatePadWidthsThatWouldExhaustMemoryAreTypedErrors() throws Exception {
    for (String width : List.of("2147483648", "2147483647", "1000")) {
      Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV30());
      MetadataEdit.info(
          root,
          n ->
              n.put(
                  "data_path",
                  "data/chunk-{chunk_index:0" + width + "d}/file-{file_index:03d}.parquet"));
      DatasetException e =
          assertThrows(
              DatasetException.class, () -> LeRobotMetadata.open(root, Optional.empty()), width);
      assertNames(e, "info.json", "data_path", width);
      org.robostream.testing.Fixtures.deleteTree(root);
    }
  }

  @Test
  void aFractionalFpsIsRefusedAndAWholeFloatFpsWorks() throws Exception {
    for (String fps : List.of("29.97", "19.5")) {
      Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
      MetadataEdit.info(root, n -> n.put("fps", Double.parseDouble(fps)));
      DatasetException e =
          assertThrows(
              DatasetException.class, () -> LeRobotMetadata.open(root, Optional.empty()), fps);
      assertNames(e, "info.json", "fps", fps);
      org.robostream.testing.Fixtures.deleteTree(root);
    }
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
    MetadataEdit.info(root, n -> n.put("fps", 20.0));
    assertEquals(20, LeRobotMetadata.open(root, Optional.empty()).info().fps());
    assertEquals(30, streamAll(root));
  }

  @Test
  void aFractionalV21LengthIsRefusedNotTruncated() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
    MetadataEdit.episodeField(root, 0, "length", "10.5");
    DatasetException e =
        assertThrows(DatasetException.class, () -> LeRobotMetadata.open(root, Optional.empty()));
    assertNames(e, "episodes.jsonl", "length", "10.5");
  }

  @Test
  void wholeFloatValuesInTheV30EpisodesTableWork() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV30());
    ParquetEdit.rewrite(
        root.resolve("meta/episodes/chunk-000/file-000.parquet"),
        t -> t.retype("length", ParquetEdit.FLOAT64));
    assertEquals(36, streamAll(root));
  }

  @Test
  void aRelativeRootAndTheCurrentDirectoryResolve() throws Exception {
    Path root = Datasets.tinyPatternV30();
    Path relative = Path.of("").toAbsolutePath().relativize(root);
    assertEquals(3, LeRobotMetadata.open(relative, Optional.empty()).episodes().size());
    PathTemplate t =
        new PathTemplate("data/chunk-{chunk_index:03d}/f.parquet", "info.json", "data_path");
    assertEquals(
        Path.of("").toAbsolutePath().resolve("data/chunk-002/f.parquet"),
        t.resolve(Path.of("."), Map.of("chunk_index", 2)));
  }
}
