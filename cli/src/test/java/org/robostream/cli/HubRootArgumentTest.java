package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.stream.StreamingDataset;

/**
 * {@code --root hf://datasets/...} stands for --repo-id/--revision; what a Hub location cannot be,
 * the library says (naming its options) and the CLI shows with its flags. None of these reaches a
 * server.
 */
class HubRootArgumentTest {
  @TempDir Path tmp;

  @Test
  void theFlagsNameOneHubLocation() {
    assertEquals(
        "hf://datasets/lerobot/pusht@v3.0",
        HubRoot.location("hf://datasets/lerobot/pusht@v3.0", null, null));
    assertEquals(
        "hf://datasets/lerobot/pusht@main",
        HubRoot.location("hf://datasets/lerobot/pusht", "lerobot/pusht", "main"));
    assertEquals(
        "hf://datasets/lerobot/pusht", HubRoot.location("hf://datasets/lerobot/pusht", null, null));
    assertEquals(
        "hf://datasets/lerobot/pusht@refs%2Fpr%2F1",
        HubRoot.location(null, "lerobot/pusht", "refs/pr/1"));
    assertNull(HubRoot.location("/data/pusht", "lerobot/pusht", null), "a label with --root");
    assertNull(HubRoot.location(null, null, null));
    assertThrows(
        IllegalArgumentException.class,
        () -> HubRoot.location("hf://datasets/lerobot/pusht", "lerobot/aloha", null));
    assertThrows(
        IllegalArgumentException.class,
        () -> HubRoot.location("hf://datasets/lerobot/pusht@v3.0", null, "main"));
  }

  @Test
  void aPathInsideABucketOrARepositoryIsRefusedWithWhatToWriteInstead() {
    String bucket =
        assertThrows(
                IllegalArgumentException.class,
                () -> StreamingDataset.builder("hf://buckets/acme/stream/videos").build())
            .getMessage();
    assertTrue(bucket.contains("hf://buckets/acme/stream, not a path inside it"), bucket);
    String inside =
        assertThrows(
                IllegalArgumentException.class,
                () -> StreamingDataset.builder("hf://datasets/lerobot/pusht@v3.0/videos").build())
            .getMessage();
    assertTrue(inside.contains("hf://datasets/lerobot/pusht@v3.0, not a path inside it"), inside);
    String cli =
        BenchCliTest.captureErr(
            () ->
                assertEquals(
                    2,
                    Main.run(
                        "bench",
                        "--root",
                        "hf://buckets/acme/stream/videos",
                        "--out-dir",
                        tmp.toString())));
    assertTrue(cli.contains("hf://buckets/acme/stream, not a path inside it"), cli);
  }
}
