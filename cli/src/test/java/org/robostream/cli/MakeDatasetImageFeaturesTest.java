package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;

/** {@code make-dataset --image-features png|jpeg} writes cameras as image features that stream. */
@org.junit.jupiter.api.extension.ExtendWith(org.robostream.testing.NativeLeakCheck.class)
class MakeDatasetImageFeaturesTest {
  @TempDir Path tmp;

  @Test
  void imageFeaturesAreDeclaredStoredInTheDataFilesAndStream() throws Exception {
    for (String layout : new String[] {"v2.1", "v3.0"}) {
      Path out = tmp.resolve(layout);
      assertEquals(
          0,
          Main.run(
              "make-dataset",
              "--out",
              out.toString(),
              "--episodes",
              "2",
              "--frames-per-episode",
              "6",
              "--cameras",
              "2",
              "--size",
              "64x48",
              "--codec", // checked against the size even though no video is written
              "h264",
              "--layout",
              layout,
              "--image-features",
              "jpeg"));
      JsonNode info = Json.MAPPER.readTree(out.resolve("meta/info.json").toFile());
      JsonNode top = info.get("features").get("observation.images.top");
      assertEquals("image", top.get("dtype").asText());
      assertEquals("[48,64,3]", top.get("shape").toString());
      assertFalse(Files.exists(out.resolve("videos")), "no videos");
      int frames = 0;
      try (StreamingDataset ds = StreamingDataset.builder(out).batchSize(4).build()) {
        for (Batch b : ds) {
          try (b) {
            assertArrayEquals(
                new int[] {b.size(), 3, 48, 64}, b.frameShape("observation.images.wrist"));
            frames += b.size();
          }
        }
      }
      assertEquals(12, frames, layout);
    }
    assertEquals(
        2,
        Main.run("make-dataset", "--out", tmp.resolve("x").toString(), "--image-features", "gif"));
  }
}
