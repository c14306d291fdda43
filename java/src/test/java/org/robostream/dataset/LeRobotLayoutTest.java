package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.MetadataEdit;

/**
 * Layouts as LeRobot reads them: the v3.0 episodes table is exactly {@code meta/episodes/*}{@code
 * /*.parquet} (other files there are ignored), v2.0 reads as v2.1, a data column that info.json
 * does not declare is named as such, and a path template no LeRobot version can fill is refused
 * when the dataset is opened, naming the template and info.json.
 */
class LeRobotLayoutTest {
  @TempDir Path tmp;

  @Test
  void episodesFilesOutsideTheGlobThatLeRobotReadsAreIgnored() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV30());
    Path episodes = root.resolve("meta/episodes");
    Path table = episodes.resolve("chunk-000/file-000.parquet");
    // A stray copy at the top (LeRobot globs meta/episodes/*/*.parquet), one nested too deep,
    // and a file of another kind next to the table: none of them is part of the table.
    Files.copy(table, episodes.resolve("file-000.parquet"));
    Files.createDirectories(episodes.resolve("chunk-000/old"));
    Files.copy(table, episodes.resolve("chunk-000/old/file-000.parquet"));
    Files.writeString(episodes.resolve("chunk-000/file-000.parquet.md5"), "0123");
    LeRobotMetadata m = LeRobotMetadata.open(root, Optional.empty());
    assertEquals(List.of(0, 1, 2), m.episodes().stream().map(EpisodeInfo::index).toList());
    assertEquals(36, MetadataValuesTest.streamAll(root));
  }

  @Test
  void aV20DatasetStreamsLikeV21() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
    // v2.0 is v2.1 without per-episode statistics.
    MetadataEdit.info(root, info -> info.put("codebase_version", "v2.0"));
    Files.delete(root.resolve("meta/episodes_stats.jsonl"));
    LeRobotMetadata m = LeRobotMetadata.open(root, Optional.empty());
    assertEquals(2, m.info().majorVersion());
    assertEquals(30, MetadataValuesTest.streamAll(root));
  }

  @Test
  void theRealGr00tV20DatasetOpensWithEachCamerasOwnShapeAndItsDataFilesAgree() {
    Path root = org.robostream.testing.Fixtures.sharedDataset("gr00t-picknplace-v20");
    LeRobotMetadata m = LeRobotMetadata.open(root, Optional.empty());
    assertEquals("v2.0", m.info().codebaseVersion());
    assertEquals(5, m.episodes().size());
    assertEquals(2096, m.episodes().stream().mapToInt(EpisodeInfo::length).sum());
    assertEquals(
        new FrameShape(800, 1280, 3, false),
        m.info().features().get("observation.images.egoview").frameShape());
    assertEquals(
        new FrameShape(256, 256, 3, false),
        m.info().features().get("observation.images.ego_view").frameShape());
    // float64 state and action, bool next.done, int64 annotations: every declared column is
    // there with its type, and every episode's rows are where the table says.
    m.checkDataFiles();
  }

  @Test
  void anEpisodeIndexColumnThatInfoJsonDoesNotDeclareIsNamedAsSuchByTheMetadataAlone()
      throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
    MetadataEdit.info(
        root,
        info ->
            ((com.fasterxml.jackson.databind.node.ObjectNode) info.get("features"))
                .remove("episode_index"));
    // As info.json declares it, without the LeRobot defaults a dataset source assumes.
    LeRobotMetadata m = LeRobotMetadata.open(root, Optional.empty());
    DatasetException.BadMetadata e =
        assertThrows(DatasetException.BadMetadata.class, m::checkDataFiles);
    MetadataValuesTest.assertNames(
        e, "episode_000000.parquet", "episode_index", "not declared in info.json");
    // A stream reads it as LeRobot declares it (stream.DefaultFeaturesMetadataTest).
    assertEquals(List.of("episode_index"), m.withDefaultFeatures().info().assumedDefaults());
    m.withDefaultFeatures().checkDataFiles();
  }

  @Test
  void undeclaredColumnsOtherThanTheEpisodeIndexAreIgnoredAsLeRobotDoes() throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
    MetadataEdit.info(
        root,
        info ->
            ((com.fasterxml.jackson.databind.node.ObjectNode) info.get("features"))
                .remove(List.of("observation.state")));
    assertEquals(30, MetadataValuesTest.streamAll(root));
  }

  @Test
  void aTemplateFieldNoLeRobotVersionFillsIsRefusedWhenOpenedNamingTemplateAndInfoJson()
      throws Exception {
    Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
    String template = "data/chunk-{chunk:03d}/episode_{episode_index:06d}.parquet";
    MetadataEdit.info(root, info -> info.put("data_path", template));
    DatasetException.BadMetadata e =
        assertThrows(
            DatasetException.BadMetadata.class, () -> LeRobotMetadata.open(root, Optional.empty()));
    assertEquals(root.resolve("meta/info.json").toString(), e.file());
    MetadataValuesTest.assertNames(e, "data_path", template, "{chunk}", "episode_chunk");
  }

  @Test
  void aTemplateWithBracesThatAreNoFieldIsRefusedWhenOpened() throws Exception {
    for (String template :
        List.of(
            "videos/chunk-{episode_chunk:03d/{video_key}/episode_{episode_index:06d}.mp4",
            "videos/chunk-{episode_chunk:03d}/{video_key}/episode_{}.mp4",
            "videos/chunk-{episode_chunk:03d}/{video_key}/episode_{episode_index:x}.mp4")) {
      Path root = V30MetadataTestAccess.copyInto(tmp, Datasets.tinyPatternV21());
      MetadataEdit.info(root, info -> info.put("video_path", template));
      DatasetException.BadMetadata e =
          assertThrows(
              DatasetException.BadMetadata.class,
              () -> LeRobotMetadata.open(root, Optional.empty()),
              template);
      assertEquals(root.resolve("meta/info.json").toString(), e.file());
      MetadataValuesTest.assertNames(e, "video_path", template);
      org.robostream.testing.Fixtures.deleteTree(root);
    }
  }

  @Test
  void templatesReadPythonFormatsAsPythonDoes() {
    // {{ }} are literal braces; {x:4d} pads with spaces, {x:04} and {x:04d} with zeros.
    PathTemplate t = new PathTemplate("a{{b}}/{x:4d}/{x:04}/{x:04d}/{x}", "info.json", "data_path");
    assertEquals("a{b}/   7/0007/0007/7", t.render(java.util.Map.of("x", 7)));
  }
}
