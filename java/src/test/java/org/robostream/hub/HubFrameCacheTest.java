package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;

/**
 * The decoded-frame cache with Hub and bucket videos (nginx on loopback): a second run, as another
 * process of the node would, decodes nothing and equals the local stream batch for batch; a video
 * read by range requests and the same video prewarmed into the mirror are one identity.
 */
class HubFrameCacheTest {
  @TempDir static Path tmp;
  @AutoClose static HubServer hub;
  static Path local;
  static List<String> localEpoch;

  @BeforeAll
  static void startHub() throws Exception {
    local = Datasets.patternV30();
    hub = HubServer.start(tmp.resolve("nginx"), local);
    localEpoch = HubEpochs.localEpoch(local);
  }

  private record Run(List<String> epoch, long decoded, long fromCache) {}

  private static Run stream(HubDataset ds, Path cache) {
    try (StreamingDataset s =
        HubEpochs.configure(StreamingDataset.builder(ds))
            .frameCache(FrameCacheOptions.directory(cache, 64L << 20))
            .build()) {
      List<String> epoch = HubEpochs.epoch(s);
      return new Run(epoch, s.stats().framesDecoded(), s.stats().framesFromCache());
    }
  }

  private static HubDataset prepare(String client, String dataFilesRoot) {
    return HubDataset.prepare(
        HubServer.client(hub.endpoint(), tmp.resolve(client)),
        HubServer.REPO,
        null,
        dataFilesRoot,
        Optional.empty(),
        Optional.empty(),
        f -> {});
  }

  @Test
  void aSecondRunOfARepositoryDecodesNothing() {
    Path cache = tmp.resolve("frames-repo");
    Run first = stream(prepare("client-1", null), cache);
    assertEquals(localEpoch, first.epoch());
    assertTrue(first.decoded() > 0);
    Run second = stream(prepare("client-2", null), cache);
    assertEquals(localEpoch, second.epoch(), "served from the cache, the same batches");
    assertEquals(0, second.decoded(), "every frame came from the first run's cache");
    assertTrue(second.fromCache() > 0);
  }

  @Test
  void aPrewarmedVideoIsTheSameIdentityAsTheRangeReadOne() {
    HubDataset remote = prepare("client-prewarm", null);
    Path video = remote.metadata().videoFiles().get(0);
    String rangeRead = remote.videos().identity(video);
    assertNotNull(rangeRead);
    assertTrue(
        rangeRead.contains(remote.repo().revision()), "names the pinned commit: " + rangeRead);
    Path cache = tmp.resolve("frames-prewarm");
    Run first = stream(remote, cache);
    remote.prewarmVideos(f -> {});
    assertTrue(HubFileCache.isComplete(video));
    assertEquals(rangeRead, remote.videos().identity(video), "the mirror copy is the same video");
    Run second = stream(prepare("client-prewarm", null), cache);
    assertEquals(first.epoch(), second.epoch());
    assertEquals(0, second.decoded(), "the prewarmed files hit the range-read run's frames");
  }

  @Test
  void bucketVideosAreCachedByTheirServerVersion() {
    String bucket = "hf://buckets/" + HubServer.REPO + "-bucket";
    HubDataset ds = prepare("client-bucket-1", bucket);
    Path video = ds.metadata().videoFiles().get(0);
    String identity = ds.videos().identity(video);
    assertNotNull(identity, "nginx names an ETag: the bucket's videos are cached");
    assertTrue(identity.contains("/buckets/"), "the bucket's URL: " + identity);
    Path cache = tmp.resolve("frames-bucket");
    Run first = stream(ds, cache);
    assertEquals(localEpoch, first.epoch());
    Run second = stream(prepare("client-bucket-2", bucket), cache);
    assertEquals(localEpoch, second.epoch());
    assertEquals(0, second.decoded());
  }
}
