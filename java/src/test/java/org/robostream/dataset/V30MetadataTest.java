package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.codec.Decoder;
import org.robostream.dataset.synth.SyntheticDatasetSpec;
import org.robostream.dataset.synth.SyntheticValues;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;

/** v3.0 metadata of a generated dataset whose data and video files roll over. */
class V30MetadataTest {
  @TempDir Path tmp;

  @Test
  void episodesLocateTheirRowsAndVideoSpansInSharedFiles() {
    Path root = Datasets.patternV30();
    LeRobotMetadata m = LeRobotMetadata.open(root, Optional.empty());
    assertEquals("v3.0", m.info().codebaseVersion());
    assertEquals(7, m.episodes().size());
    SyntheticDatasetSpec spec = SyntheticDatasetSpec.defaults(root);
    long from = 0;
    Set<Path> dataFiles = new HashSet<>();
    Set<Path> videoFiles = new HashSet<>();
    for (EpisodeInfo e : m.episodes()) {
      assertEquals(from, e.datasetFromIndex(), "episode " + e.index());
      from += e.length();
      assertEquals(List.of(SyntheticValues.task(e.index() % 3)), e.tasks());
      assertTrue(Files.isRegularFile(e.dataFile()), e.dataFile().toString());
      dataFiles.add(e.dataFile());
      for (VideoSpan v : e.videos().values()) {
        videoFiles.add(v.file());
        assertEquals(e.length() / 20.0, v.toTimestamp() - v.fromTimestamp(), 1e-6);
      }
    }
    assertTrue(dataFiles.size() > 1 && dataFiles.size() < 7, "data files roll over: " + dataFiles);
    assertTrue(videoFiles.size() > 2, "video files roll over: " + videoFiles);
    // Position addressing: an episode's frame offset is the frames stored before it in its file,
    // and the file holds exactly fileFrames frames.
    for (EpisodeInfo e : m.episodes()) {
      VideoSpan v = e.video("observation.images.top");
      if (v.fromTimestamp() == 0) {
        assertEquals(0, v.frameOffset());
      } else {
        assertEquals(Math.round(v.fromTimestamp() * 20), v.frameOffset(), "episode " + e.index());
      }
      try (Decoder d = Decoder.open(v.file())) {
        assertEquals(v.fileFrames(), d.info().frameCount(), v.file().toString());
      }
    }
    assertEquals(3, m.tasks().size());
    assertTrue(m.stats().isPresent() && m.stats().get().has("action"));
    assertTrue(spec.cameraKeys().containsAll(m.info().videoKeys()));
  }

  @Test
  void statsColumnsOfTheEpisodeTableAreNotRead() {
    Path table = Datasets.patternV30().resolve("meta/episodes/chunk-000/file-000.parquet");
    try (BufferAllocator a = new RootAllocator()) {
      assertTrue(
          ParquetFrames.fileColumns(a, table).contains("stats/action/mean"),
          "the fixture has stats columns, as LeRobot writes them");
    }
    // The reader selects every column but stats/*: reading succeeded above with them present.
    assertEquals(
        7, LeRobotMetadata.open(Datasets.patternV30(), Optional.empty()).episodes().size());
  }

  @Test
  void filterAndSecondDataRoot() throws Exception {
    Path root = Datasets.patternV30();
    LeRobotMetadata some = LeRobotMetadata.open(root, Optional.of(List.of(5, 2)));
    assertEquals(List.of(2, 5), some.episodes().stream().map(EpisodeInfo::index).toList());
    assertThrows(
        DatasetException.BadMetadata.class,
        () -> LeRobotMetadata.open(root, Optional.of(List.of(7))));
    // Metadata from one root, data and videos from another.
    Path metaOnly = tmp.resolve("meta-only");
    Files.createDirectories(metaOnly);
    copyTree(root.resolve("meta"), metaOnly.resolve("meta"));
    LeRobotMetadata split = LeRobotMetadata.open(metaOnly, root, Optional.of(List.of(3)));
    assertEquals(
        root.resolve("data").toString(), split.dataFile(3).getParent().getParent().toString());
    DatasetException.MissingFile missing =
        assertThrows(
            DatasetException.MissingFile.class,
            () -> DatasetSource.local(metaOnly, SourceOptions.defaults().withEpisodes(List.of(3))));
    assertEquals(metaOnly.toString(), missing.file());
    assertTrue(
        missing.getMessage().contains("data/chunk-000/file-001.parquet"), missing.getMessage());
  }

  @Test
  void brokenTablesAreTypedErrors() throws Exception {
    Path copy = tmp.resolve("copy");
    copyTree(Datasets.patternV30(), copy);
    Files.writeString(copy.resolve("meta/tasks.parquet"), "not parquet");
    DatasetException e =
        assertThrows(
            DatasetException.CorruptFile.class, () -> LeRobotMetadata.open(copy, Optional.empty()));
    assertTrue(e.getMessage().contains("tasks.parquet"), e.getMessage());
    Fixtures.deleteTree(copy.resolve("meta/episodes"));
    Files.delete(copy.resolve("meta/tasks.parquet"));
    assertThrows(
        DatasetException.MissingFile.class, () -> LeRobotMetadata.open(copy, Optional.empty()));
  }

  static void copyTree(Path from, Path to) throws Exception {
    try (var walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
