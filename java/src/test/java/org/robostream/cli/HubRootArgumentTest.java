package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.robostream.source.hub.HubLocation;

/** {@code --root hf://datasets/...} stands for --repo-id/--revision; what it cannot be says so. */
class HubRootArgumentTest {
  @Test
  void anHfDatasetUrlNamesTheRepositoryAndRevision() {
    HubLocation l = HubRoot.of("hf://datasets/lerobot/pusht@v3.0", null, null);
    assertEquals("lerobot/pusht", l.id());
    assertEquals("v3.0", l.revision());
    assertEquals("main", HubRoot.of("hf://datasets/lerobot/pusht", "lerobot/pusht", "main")
        .revision());
    assertNull(HubRoot.of("hf://datasets/lerobot/pusht", null, null).revision());
    assertNull(HubRoot.of("/data/pusht", null, null));
    assertNull(HubRoot.of(null, null, null));
    assertEquals(Path.of("/data/pusht"), HubRoot.local("/data/pusht"));
    assertNull(HubRoot.local("hf://datasets/lerobot/pusht"));
  }

  @Test
  void bucketsPathsAndContradictionsAreRefusedWithWhatToWriteInstead() {
    String bucket = assertThrows(IllegalArgumentException.class,
        () -> HubRoot.of("hf://buckets/acme/stream", null, null)).getMessage();
    assertTrue(bucket.contains("--data-files-root hf://buckets/acme/stream"), bucket);
    String inside = assertThrows(IllegalArgumentException.class,
        () -> HubRoot.of("hf://datasets/lerobot/pusht@v3.0/videos", null, null)).getMessage();
    assertTrue(inside.contains("hf://datasets/lerobot/pusht@v3.0, not a path inside it"), inside);
    assertThrows(IllegalArgumentException.class,
        () -> HubRoot.of("hf://datasets/lerobot/pusht", "lerobot/aloha", null));
    assertThrows(IllegalArgumentException.class,
        () -> HubRoot.of("hf://datasets/lerobot/pusht@v3.0", null, "main"));
  }
}
