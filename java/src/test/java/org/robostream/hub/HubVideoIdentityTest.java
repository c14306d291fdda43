package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;

/**
 * A Hub video's identity for the frame cache (real nginx): the same whether the video is read with
 * range requests or from its prewarmed copy in the mirror, so frames cached from one are served to
 * the other; another version on the server (nginx's ETag follows the file's mtime) is another
 * identity, so frames of the old bytes are never served for the new ones.
 */
class HubVideoIdentityTest {
  @TempDir static Path tmp;
  @AutoClose static HubServer hub;
  static Path served;

  @BeforeAll
  static void startHub() throws Exception {
    served = tmp.resolve("served");
    V30MetadataTestAccess.copyTree(Datasets.tinyPatternV30(), served);
    hub = HubServer.start(tmp.resolve("nginx"), served);
  }

  private static HubDataset prepare(String cache) {
    return HubDataset.prepare(
        HubServer.client(hub.endpoint(), tmp.resolve(cache)),
        HubServer.REPO,
        null,
        null,
        Optional.empty(),
        Optional.empty(),
        f -> {});
  }

  @Test
  void aVideoHasOneIdentityRangeReadOrPrewarmedAndAnotherOnceTheServerChangesIt() throws Exception {
    HubDataset ds = prepare("cache");
    List<Path> videos = ds.videosNotInMirror();
    assertFalse(videos.isEmpty(), "videos are read remotely before a prewarm");
    Path video = videos.get(0);
    String remote = ds.videos().identity(video);
    assertNotNull(remote, "a repository file's identity");
    assertTrue(remote.startsWith("hf:" + ds.urlOf(video) + "|"), remote);

    ds.prewarmVideos(f -> {});
    assertTrue(HubFileCache.isComplete(video), "prewarmed");
    assertEquals(remote, ds.videos().identity(video), "the mirror's copy is the same bytes");

    Path onServer = served.resolve(ds.dataRoot().relativize(video).toString());
    Files.setLastModifiedTime(
        onServer, FileTime.fromMillis(Files.getLastModifiedTime(onServer).toMillis() + 3_600_000));
    HubDataset changed = prepare("fresh-cache");
    Path sameVideo = changed.dataRoot().resolve(ds.dataRoot().relativize(video).toString());
    String after = changed.videos().identity(sameVideo);
    assertNotNull(after);
    assertNotEquals(remote, after, "another version on the server is another identity");
    assertEquals(
        remote, ds.videos().identity(video), "the prewarmed copy keeps the version it holds");
  }
}
