package org.robostream.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Fixtures;

/** v2.1 metadata of the real shared dataset, tolerant parsing and path safety. */
class LeRobotMetadataTest {
  @TempDir Path tmp;

  static Path shared() {
    return Fixtures.sharedDataset();
  }

  @Test
  void sharedDatasetOpensWithItsEpisodeFilter() {
    LeRobotMetadata m = LeRobotMetadata.open(shared(), Optional.of(List.of(4, 1, 2, 1)));
    DatasetInfo info = m.info();
    assertEquals("v2.1", info.codebaseVersion());
    assertEquals(2, info.majorVersion());
    assertEquals(30, info.fps());
    assertEquals(100, info.totalEpisodes());
    assertEquals(List.of("observation.images.cam_high"), info.videoKeys());
    Feature state = info.features().get("observation.state");
    assertArrayEquals(new int[] {26}, state.shape());
    assertEquals(26, state.names().size(), "nested list of names flattened");
    assertEquals("kLeftShoulderPitch", state.names().get(0));
    Feature cam = info.features().get("observation.images.cam_high");
    assertEquals("av1", cam.videoInfo().get("video.codec"));
    assertEquals(List.of(1, 2, 4), m.episodes().stream().map(EpisodeInfo::index).toList());
    assertEquals(393, m.episodes().get(0).length());
    assertEquals("Pick up the yellow bottle on the table.", m.task(0));
    assertTrue(m.episodeStats().get(1).has("action"), "episodes_stats.jsonl loaded");
    assertEquals(393, m.episode(1).video("observation.images.cam_high").fileFrames());
    assertEquals(0.0, m.episode(1).video("observation.images.cam_high").fromTimestamp());
    assertEquals(shared().resolve("data/chunk-000/episode_000002.parquet"), m.dataFile(2));
    assertEquals(
        shared().resolve("videos/chunk-000/observation.images.cam_high/episode_000004.mp4"),
        m.videoFile(4, "observation.images.cam_high"));
  }

  @Test
  void videoFilesListsEachFileOnceCameraByCameraInPathOrder() {
    Path root = org.robostream.testing.Datasets.patternV30();
    LeRobotMetadata all = LeRobotMetadata.open(root, Optional.empty());
    List<Path> expected = new java.util.ArrayList<>();
    for (String camera : all.info().videoKeys()) {
      try (var files = Files.walk(root.resolve("videos").resolve(camera))) {
        expected.addAll(files.filter(Files::isRegularFile).sorted().toList());
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    assertTrue(expected.size() > all.info().videoKeys().size(), "several files per camera");
    assertEquals(expected, all.videoFiles());
    // A view lists only the files of its episodes: the first episode's, one per camera.
    LeRobotMetadata first = LeRobotMetadata.open(root, Optional.of(List.of(0)));
    assertEquals(
        all.info().videoKeys().stream().map(c -> first.videoFile(0, c)).toList(),
        first.videoFiles());
  }

  @Test
  void anEpisodeWithoutFilesIsAClearErrorWhenTheDatasetIsOpened() {
    Path root = shared(); // outside the lambda: a missing dataset skips, it does not fail
    DatasetException.MissingFile e =
        assertThrows(
            DatasetException.MissingFile.class,
            () -> DatasetSource.local(root, SourceOptions.defaults().withEpisodes(List.of(1, 3))));
    assertTrue(e.getMessage().contains("episode_000003.parquet"), e.getMessage());
    assertTrue(e.getMessage().contains("episodes(\"1\")"), e.getMessage());
    // The metadata alone lists every episode, files or not (inspect counts what is there).
    LeRobotMetadata all = LeRobotMetadata.open(shared(), Optional.empty());
    assertEquals(100, all.episodes().size());
    assertThrows(
        DatasetException.BadMetadata.class,
        () -> LeRobotMetadata.open(shared(), Optional.of(List.of(1000))));
  }

  @Test
  void tolerantInfoParsing() throws Exception {
    String json =
        "{\"codebase_version\":\"v2.1\",\"fps\":15,\"metadata\":{\"x\":1},"
            + "\"data_path\":\"data/{episode_index:06d}.parquet\","
            + "\"video_path\":\"videos/{video_key}/{episode_index:06d}.mp4\","
            + "\"features\":{\"cam\":{\"dtype\":\"video\",\"shape\":[4,6,3],"
            + "\"names\":[\"height\",\"width\",\"channel\"],\"video_info\":{\"video.codec\":\"h264\"}},"
            + "\"joints\":{\"dtype\":\"float32\",\"shape\":[2],\"names\":{\"motors\":[\"a\",\"b\"]}},"
            + "\"flag\":{\"dtype\":\"bool\",\"shape\":[1],\"names\":null}}}";
    DatasetInfo info = DatasetInfo.parse(new ObjectMapper().readTree(json), "test");
    assertEquals(15, info.fps());
    assertEquals("h264", info.features().get("cam").videoInfo().get("video.codec"));
    assertEquals(List.of("a", "b"), info.features().get("joints").names());
    assertEquals(List.of(), info.features().get("flag").names());
    assertThrows(
        DatasetException.BadMetadata.class,
        () ->
            DatasetInfo.parse(
                new ObjectMapper()
                    .readTree(
                        "{\"codebase_version\":\"v2.1\",\"fps\":0,"
                            + "\"data_path\":\"d\",\"features\":{}}"),
                "test"));
    Path bad = Files.writeString(tmp.resolve("info.json"), "{not json");
    assertThrows(DatasetException.BadMetadata.class, () -> DatasetInfo.read(bad));
    assertThrows(
        DatasetException.MissingFile.class, () -> DatasetInfo.read(tmp.resolve("absent.json")));
  }

  @Test
  void templatesCannotEscapeTheRoot() {
    Path root = tmp.resolve("ds");
    PathTemplate ok =
        new PathTemplate(
            "data/chunk-{episode_chunk:03d}/e_{episode_index:06d}.pq", "t", "data_path");
    assertEquals(
        root.resolve("data/chunk-001/e_001234.pq"),
        ok.resolve(root, Map.of("episode_chunk", 1, "episode_index", 1234)));
    for (String evil :
        new String[] {
          "../outside/{episode_index}.pq", "/etc/{episode_index}", "data/../../{episode_index}"
        }) {
      assertThrows(
          DatasetException.BadMetadata.class,
          () -> new PathTemplate(evil, "t", "data_path").resolve(root, Map.of("episode_index", 1)),
          evil);
    }
    assertThrows(
        DatasetException.BadMetadata.class,
        () ->
            new PathTemplate("{video_key}/x", "t", "video_path")
                .resolve(root, Map.of("video_key", "..")));
    assertThrows(
        DatasetException.BadMetadata.class,
        () -> ok.render(Map.of("episode_index", 1)),
        "unknown field");
  }
}
