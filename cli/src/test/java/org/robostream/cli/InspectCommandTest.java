package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;
import org.robostream.testing.MetadataEdit;

/**
 * {@code inspect} shows each camera with its own declared shape (height x width x channels, in
 * whatever axis order info.json declares it), its kind (video, depth, image) and pixel format,
 * declared and probed from the first present file, in JSON and text.
 */
class InspectCommandTest {
  private static final String EGOVIEW = "observation.images.egoview";
  private static final String EGO_VIEW = "observation.images.ego_view";

  @TempDir Path tmp;

  @Test
  void theGr00tDatasetShowsBothCamerasWithTheirOwnSizesAndEgoviewsFilesAbsent() throws Exception {
    Path root = Fixtures.sharedDataset("gr00t-picknplace-v20");
    JsonNode json = Json.MAPPER.readTree(inspect(root, "--json"));
    assertEquals("v2.0", json.get("codebase_version").asText());
    JsonNode egoview = camera(json, EGOVIEW);
    assertEquals("video", egoview.get("kind").asText());
    assertDeclared(egoview, 800, 1280, 3, "HWC");
    assertEquals("h264", egoview.get("declared").get("codec").asText());
    assertEquals("yuv420p", egoview.get("declared").get("pixel_format").asText());
    assertTrue(egoview.get("files_absent").asBoolean(), egoview.toString());
    assertEquals(0, egoview.get("video_files_present").asInt());
    assertEquals(5, egoview.get("video_files").asInt());
    assertFalse(egoview.has("codec"), "nothing probed from absent files: " + egoview);
    JsonNode egoView = camera(json, EGO_VIEW);
    assertDeclared(egoView, 256, 256, 3, "HWC");
    assertFalse(egoView.get("files_absent").asBoolean());
    assertEquals("h264", egoView.get("codec").asText());
    assertEquals(256, egoView.get("width").asInt());
    assertEquals(256, egoView.get("height").asInt());
    assertEquals("yuv420p", egoView.get("pixel_format").asText());
    assertTrue(egoView.get("size_matches_declared").asBoolean());

    String text = inspect(root);
    assertContains(
        text,
        "camera "
            + EGOVIEW
            + " (video): declared 800 x 1280 x 3 (H x W x C), h264 yuv420p;"
            + " video files absent (0/5 present): declared values only");
    assertContains(
        text,
        "camera "
            + EGO_VIEW
            + " (video): declared 256 x 256 x 3 (H x W x C), h264 yuv420p;"
            + " probed h264 256x256 yuv420p; video files present 5/5");
  }

  @Test
  void theCr5DatasetSaysItsTimestampsAreAsRecordedForTheEpisodesThatAreThere() throws Exception {
    Path root = Fixtures.sharedDataset(Fixtures.CR5);
    JsonNode json = Json.MAPPER.readTree(inspect(root, "--json"));
    assertEquals("ok", json.get("data_check").asText());
    String timestamps = json.get("timestamps").asText();
    assertTrue(
        timestamps.startsWith(
            "timestamps: 5 of 5 episodes as recorded, up to 2.170 s (21.7"
                + " frames) from frame_index / fps (episode 2 row 269 at"),
        timestamps);
    assertContains(inspect(root), "; rows stream with their frames by position");
    assertEquals(1, json.get("timestamp_warnings").size());
    assertContains(
        json.get("timestamp_warnings").get(0).asText(),
        "Rows as recorded in 5 of 5 episodes (0-4): LeRobot would show another frame");
    assertContains(inspect(root), "warning: timestamps position (the default) shows row k");
  }

  @Test
  void aTableThatRecordsTheLastFramesTimeSaysSo() throws Exception {
    Path root = Datasets.lastFrameToTimestampV30();
    assertEquals(
        "last_frame", Json.MAPPER.readTree(inspect(root, "--json")).get("to_timestamp").asText());
    assertContains(inspect(root), "to_timestamp: each episode's last frame");
    assertContains(inspect(Datasets.tinyPatternV30()), "to_timestamp: each episode's end");
  }

  @Test
  void aDataFileThatIsNotItsRowsFramesExitsOneSayingWhy() throws Exception {
    Path root = tmp.resolve("ds");
    V30MetadataTestAccess.copyTree(Datasets.tinyPatternV21(), root);
    org.robostream.testing.ParquetEdit.rewrite(
        root.resolve("data/chunk-000/episode_000001.parquet"), t -> t.set("frame_index", 4, 9));
    String out =
        CliTest.capture(() -> assertEquals(1, Main.run(new String[] {"inspect", root.toString()})));
    assertContains(out, "data files: refused: ");
    assertContains(out, "episode 1 row 4 has frame_index 9");
  }

  @Test
  void aSyntheticDatasetShowsChannelsFirstDepthAndImageCameras() throws Exception {
    Path root =
        tinyV21With(
            info -> {
              ObjectNode features = (ObjectNode) info.get("features");
              ObjectNode top = (ObjectNode) features.get("observation.images.top");
              top.putArray("shape").add(3).add(48).add(64);
              top.putArray("names").add("channels").add("height").add("width");
              ObjectNode wrist = (ObjectNode) features.get("observation.images.wrist");
              wrist.putArray("shape").add(48).add(64).add(1); // a depth map has one channel
              ((ObjectNode) wrist.get("info"))
                  .put("video.is_depth_map", true)
                  .put("video.channels", 1);
              ObjectNode still = features.putObject("observation.images.still");
              still.put("dtype", "image");
              still.putArray("shape").add(3).add(32).add(40);
              still.putArray("names").add("channel").add("height").add("width");
            });
    // The still camera is declared but the data files have no column for it: described all the
    // same, and the data check's refusal said (exit 1).
    JsonNode json = Json.MAPPER.readTree(inspectExiting(1, root, "--json"));
    assertTrue(
        json.get("data_check").asText().contains("has no column observation.images.still"),
        json.get("data_check").asText());
    JsonNode top = camera(json, "observation.images.top");
    assertEquals("video", top.get("kind").asText());
    assertDeclared(top, 48, 64, 3, "CHW");
    assertEquals(64, top.get("width").asInt(), "probed");
    assertEquals("depth", camera(json, "observation.images.wrist").get("kind").asText());
    JsonNode still = camera(json, "observation.images.still");
    assertEquals("image", still.get("kind").asText());
    assertDeclared(still, 32, 40, 3, "CHW");

    String text = inspectExiting(1, root);
    assertContains(text, "data files: refused: ");
    assertContains(
        text,
        "camera observation.images.top (video): declared 48 x 64 x 3 (H x W x C; info.json"
            + " [3, 48, 64] channels first), h264 yuv420p; probed h264 64x48 yuv420p;"
            + " video files present 3/3");
    assertContains(text, "camera observation.images.wrist (depth): declared 48 x 64 x 1");
    assertContains(
        text,
        "camera observation.images.still (image): declared 32 x 40 x 3 (H x W x C; info.json"
            + " [3, 32, 40] channels first); PNG/JPEG images in the data files");
  }

  @Test
  void aProbedSizeOtherThanTheDeclaredOneIsShownAsSuch() throws Exception {
    Path root =
        tinyV21With(
            info -> {
              ObjectNode top = (ObjectNode) info.get("features").get("observation.images.top");
              top.putArray("shape").add(64).add(48).add(3);
              ((ObjectNode) top.get("info")).put("video.height", 64).put("video.width", 48);
            });
    JsonNode top = camera(Json.MAPPER.readTree(inspect(root, "--json")), "observation.images.top");
    assertFalse(top.get("size_matches_declared").asBoolean(), top.toString());
    assertContains(
        inspect(root),
        "declared 64 x 48 x 3 (H x W x C), h264 yuv420p; probed h264 64x48 yuv420p (NOT the"
            + " declared size: streaming refuses it)");
  }

  /** A copy of the tiny v2.1 dataset (2 cameras 64x48, 3 episodes) with info.json edited. */
  private Path tinyV21With(java.util.function.Consumer<ObjectNode> edit) throws Exception {
    Path root = Files.createTempDirectory(tmp, "ds");
    V30MetadataTestAccess.copyTree(Datasets.tinyPatternV21(), root);
    MetadataEdit.info(root, edit);
    return root;
  }

  private static String inspect(Path root, String... options) {
    return inspectExiting(0, root, options);
  }

  private static String inspectExiting(int exit, Path root, String... options) {
    String[] args = new String[options.length + 2];
    args[0] = "inspect";
    args[1] = root.toString();
    System.arraycopy(options, 0, args, 2, options.length);
    return CliTest.capture(() -> assertEquals(exit, Main.run(args)));
  }

  private static JsonNode camera(JsonNode json, String key) {
    for (JsonNode c : json.get("cameras")) {
      if (c.get("key").asText().equals(key)) {
        return c;
      }
    }
    throw new AssertionError("no camera " + key + " in " + json.get("cameras"));
  }

  private static void assertDeclared(
      JsonNode camera, int height, int width, int channels, String axes) {
    JsonNode d = camera.get("declared");
    assertEquals(height, d.get("height").asInt(), camera.toString());
    assertEquals(width, d.get("width").asInt(), camera.toString());
    assertEquals(channels, d.get("channels").asInt(), camera.toString());
    assertEquals(axes, d.get("axes").asText(), camera.toString());
  }

  private static void assertContains(String text, String expected) {
    assertTrue(text.contains(expected), "'" + expected + "' missing from:\n" + text);
  }
}
