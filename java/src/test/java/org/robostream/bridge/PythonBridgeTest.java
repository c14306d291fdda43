package org.robostream.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.robostream.dataset.DatasetException;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;

/**
 * The Python bridge's entry: one options document opens the loader the builder would, refuses what
 * it does not know, and describes the dataset (metadata of every listed episode, what the loader
 * kept); failures become the error document the Python side maps to its types.
 */
class PythonBridgeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String options(Path root, String more) {
    return "{\"location\": " + JSON.valueToTree(root.toString()) + more + "}";
  }

  @Test
  void theOptionsOpenTheLoaderTheBuilderWould() {
    Path root = Datasets.patternV30();
    String opts =
        options(
            root,
            ", \"rank\": 0, \"world_size\": 1, \"workers\": 1, \"batch_size\": 5,"
                + " \"episodes\": [1, 3], \"cameras\": [\"observation.images.top\"],"
                + " \"shuffle\": false, \"return_uint8\": true, \"rank_balance\": \"even\","
                + " \"delta_timestamps\": {\"action\": [0.0, 0.05]}, \"timestamps\": \"position\"");
    try (StreamingDataset ds = PythonBridge.open(opts)) {
      assertEquals(List.of("observation.images.top"), ds.metadata().cameras());
      int samples = 0;
      for (Batch b : ds) {
        try (b) {
          assertTrue(b.size() <= 5);
          for (long e : b.longs("episode_index")) {
            assertTrue(e == 1 || e == 3, "only the selected episodes");
          }
          samples += b.size();
        }
      }
      int expected = ds.metadata().episode(1).length() + ds.metadata().episode(3).length();
      assertEquals(expected, samples);
    }
  }

  @Test
  void anUnknownOrMistypedOptionIsRefusedNamingIt() {
    Path root = Datasets.patternV30();
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> PythonBridge.open(options(root, ", \"batchsize\": 4")));
    assertTrue(unknown.getMessage().contains("batchsize"));
    IllegalArgumentException mistyped =
        assertThrows(
            IllegalArgumentException.class,
            () -> PythonBridge.open(options(root, ", \"rank\": 0, \"world_size\": \"two\"")));
    assertTrue(mistyped.getMessage().contains("world_size"), mistyped.getMessage());
  }

  @Test
  void theDescriptionListsEveryEpisodeAndWhatTheLoaderKept() throws IOException {
    Path root = Datasets.patternV30();
    try (StreamingDataset ds = PythonBridge.open(options(root, ", \"episodes\": [2]"))) {
      JsonNode d = JSON.readTree(PythonBridge.describe(ds));
      assertEquals(root.toString(), d.get("root").asText());
      assertEquals(7, d.get("episodes").size(), "every listed episode, as LeRobot's meta");
      assertEquals("[2]", d.get("kept_episodes").toString());
      assertEquals(20, d.get("info").get("fps").asInt());
      JsonNode episode = d.get("episodes").get(2);
      assertEquals(2, episode.get("episode_index").asInt());
      assertEquals(
          episode.get("dataset_from_index").asLong() + episode.get("length").asLong(),
          episode.get("dataset_to_index").asLong());
      assertTrue(Files.isRegularFile(root.resolve(episode.get("data_file").asText())));
      JsonNode video = episode.get("videos").get("observation.images.top");
      assertTrue(Files.isRegularFile(root.resolve(video.get("file").asText())));
      assertEquals("int64", d.get("features").get("index").get("dtype").asText());
      assertTrue(d.get("tasks").size() >= 1);
      assertTrue(d.get("warnings").isArray());
      assertTrue(d.get("data_files").asInt() >= 1);
    }
  }

  @Test
  void metadataDescribesWithoutOpeningDataFiles() throws IOException {
    Path copy =
        Fixtures.derivedDataset(
            "pattern-v30-no-videos",
            Datasets.patternV30(),
            root -> {
              try (var videos = Files.walk(root.resolve("videos"))) {
                for (Path p : videos.filter(Files::isRegularFile).toList()) {
                  Files.delete(p); // LeRobot's metadata never opens them either
                }
              }
            });
    JsonNode d = JSON.readTree(PythonBridge.describeMetadata(options(copy, "")));
    assertEquals(7, d.get("episodes").size());
    // The loader itself refuses the same folder, naming what is missing.
    assertThrows(DatasetException.class, () -> PythonBridge.open(options(copy, "")));
  }

  @Test
  void theErrorDocumentNamesTheClassesAndTheMessageOfTheFirstRobostreamCause() throws IOException {
    DatasetException cause = new DatasetException.BadMetadata("meta/info.json", "broken");
    JsonNode e =
        JSON.readTree(PythonBridge.error(new RuntimeException("wrapped", cause))).get("error");
    List<String> classes = new ArrayList<>();
    e.get("classes").forEach(c -> classes.add(c.asText()));
    assertEquals(cause.getClass().getName(), classes.get(0));
    assertTrue(classes.contains(DatasetException.class.getName()));
    assertTrue(e.get("message").asText().contains("broken"));
  }
}
