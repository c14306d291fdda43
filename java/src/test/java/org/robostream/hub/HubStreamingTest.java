package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.SourceOptions;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;

/**
 * Streaming from a Hub (nginx on loopback in the Hub's URL layout) equals streaming the local copy
 * batch for batch, through redirects, a bucket as data root, and a proxy that breaks exchanges.
 */
class HubStreamingTest {
  @TempDir static Path tmp;
  @AutoClose static HubServer hub;
  static Path local;

  @BeforeAll
  static void startHub() throws Exception {
    local = Datasets.patternV30();
    hub = HubServer.start(tmp.resolve("nginx"), local);
  }

  static List<String> localEpoch() {
    return HubEpochs.localEpoch(local);
  }

  @Test
  void hubStreamEqualsTheLocalStreamBatchForBatch() throws IOException {
    HubHttp http = HubServer.client(hub.endpoint(), tmp.resolve("cache-plain"));
    HubDataset ds =
        HubDataset.prepare(
            http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {});
    assertEquals("v3.0", ds.revision().name(), "the v3.0 tag, for metadata and videos alike");
    assertEquals(hub.commitOf("v3.0"), ds.repo().revision(), "pinned to its commit");
    assertEquals(localEpoch(), HubEpochs.epoch(ds));
    long videoBytes = 0;
    try (var files = Files.walk(local.resolve("videos"))) {
      videoBytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
    long datasetBytes;
    try (var files = Files.walk(local)) {
      datasetBytes = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
    // Decoders of one file share its blocks: the epoch fetches about the dataset once, not once
    // per decoder (64 KiB test blocks; before sharing this was ~20x).
    assertTrue(http.bytesFetched() > 0);
    assertTrue(
        http.bytesFetched() < 1.3 * datasetBytes,
        http.bytesFetched() + " bytes fetched" + " for a dataset of " + datasetBytes);
    assertTrue(Files.isRegularFile(ds.metadataRoot().resolve("meta/info.json")));
    assertFalse(Files.exists(ds.dataRoot().resolve("videos")), "videos are range-read, not cached");
    // A second prepare reuses the cached metadata and Parquet files (validated by size/ETag).
    HubDataset again =
        HubDataset.prepare(
            http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {});
    assertEquals(ds.metadataRoot(), again.metadataRoot());
    assertTrue(videoBytes > 0);
  }

  @Test
  void aBucketAsDataFilesRootAndAnEpisodeFilter() throws IOException {
    HubHttp http = HubServer.client(hub.endpoint(), tmp.resolve("cache-bucket"));
    long logStart = hub.mark();
    HubDataset ds =
        HubDataset.prepare(
            http,
            HubServer.REPO,
            "v3.0",
            "hf://buckets/" + HubServer.REPO + "-bucket",
            Optional.of(Set.of(1, 4)),
            Optional.empty(),
            f -> {});
    assertEquals(HubLocation.Kind.BUCKET, ds.files().kind());
    assertEquals(
        Set.of(1, 4), Set.copyOf(ds.metadata().episodes().stream().map(e -> e.index()).toList()));
    List<String> expected;
    try (StreamingDataset s =
        HubEpochs.configure(StreamingDataset.builder(local).episodes(List.of(1, 4))).build()) {
      expected = HubEpochs.epoch(s);
    }
    assertEquals(expected, HubEpochs.epoch(ds));
    // Metadata from the repository at its commit, data and videos from the bucket only.
    List<String> reads =
        hub.requestsSince("hub.log", logStart).stream()
            .filter(l -> l.contains("/resolve/"))
            .toList();
    String repoAt = "/datasets/" + HubServer.REPO + "/resolve/" + hub.commitOf("v3.0") + "/";
    String bucket = "/buckets/" + HubServer.REPO + "-bucket/resolve/";
    for (String kind : new String[] {"meta/", "data/", "videos/"}) {
      String from = kind.equals("meta/") ? repoAt : bucket;
      List<String> ofKind = reads.stream().filter(l -> l.contains("/" + kind)).toList();
      assertFalse(ofKind.isEmpty(), kind + " was read: " + reads);
      assertTrue(
          ofKind.stream().allMatch(l -> l.startsWith(from + kind)),
          kind + " only from " + from + ": " + ofKind);
    }
  }

  @Test
  void theLibraryEntryPointOpensAHubDatasetAndABucketFromItsEnvironmentAlone() throws IOException {
    Path cache = tmp.resolve("cache-entry");
    Map<String, String> env =
        Map.of(
            "HF_ENDPOINT",
            hub.endpoint(),
            "HF_TOKEN",
            HubServer.TOKEN,
            "HF_LEROBOT_HOME",
            cache.toString(),
            "HF_HOME",
            cache.toString());
    long logStart = hub.mark();
    List<String> expected;
    try (StreamingDataset s =
        HubEpochs.configure(StreamingDataset.builder(local).episodes(List.of(1, 4))).build()) {
      expected = HubEpochs.epoch(s);
    }
    // OWNER/NAME@REV names no local folder: the Hub's provider opens it, HubConfig from env.
    try (StreamingDataset s =
        HubEpochs.configure(
                StreamingDataset.builder(HubServer.REPO + "@v3.0")
                    .dataFilesRoot("hf://buckets/" + HubServer.REPO + "-bucket")
                    .episodes(List.of(1, 4))
                    .environment(env))
            .build()) {
      assertEquals(expected, HubEpochs.epoch(s));
    }
    List<String> reads =
        hub.requestsSince("hub.log", logStart).stream()
            .filter(l -> l.contains("/resolve/"))
            .toList();
    String bucket = "/buckets/" + HubServer.REPO + "-bucket/resolve/";
    assertTrue(reads.stream().anyMatch(l -> l.startsWith(bucket + "videos/")), reads.toString());
    assertTrue(
        reads.stream()
            .filter(l -> l.contains("/videos/") || l.contains("/data/"))
            .allMatch(l -> l.startsWith(bucket)),
        "data and videos from the bucket only: " + reads);
    assertTrue(
        reads.stream().allMatch(l -> l.contains("auth=Bearer " + HubServer.TOKEN)),
        "the token came from the builder's environment");
    // An opened source fixed its episodes and roots: the builder refuses to change them.
    HubDataset opened =
        HubDataset.open(HubServer.REPO, SourceOptions.defaults().withEnvironment(env));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StreamingDataset.builder(opened).episodes(List.of(1)).build());
    assertTrue(e.getMessage().contains("fixed when it was opened"), e.getMessage());
  }

  @Test
  void aWholeDatasetInABucketStreamsItsMetadataDataAndVideosFromTheBucket() throws IOException {
    Path cache = tmp.resolve("cache-whole-bucket");
    Map<String, String> env =
        Map.of(
            "HF_ENDPOINT",
            hub.endpoint(),
            "HF_LEROBOT_HOME",
            cache.toString(),
            "HF_HOME",
            cache.toString());
    long logStart = hub.mark();
    List<String> expected;
    try (StreamingDataset s =
        HubEpochs.configure(StreamingDataset.builder(local).episodes(List.of(1, 4))).build()) {
      expected = HubEpochs.epoch(s);
    }
    // LeRobot's repo_type="bucket": meta/, data/ and videos/ all in the bucket, no revision.
    try (StreamingDataset s =
        HubEpochs.configure(
                StreamingDataset.builder("hf://buckets/" + HubServer.REPO + "-bucket")
                    .episodes(List.of(1, 4))
                    .environment(env))
            .build()) {
      assertEquals(expected, HubEpochs.epoch(s));
    }
    List<String> reads =
        hub.requestsSince("hub.log", logStart).stream()
            .filter(l -> l.contains("/resolve/"))
            .toList();
    String bucket = "/buckets/" + HubServer.REPO + "-bucket/resolve/";
    for (String kind : new String[] {"meta/", "data/", "videos/"}) {
      List<String> ofKind = reads.stream().filter(l -> l.contains("/" + kind)).toList();
      assertFalse(ofKind.isEmpty(), kind + " was read: " + reads);
      assertTrue(
          ofKind.stream().allMatch(l -> l.startsWith(bucket + kind)),
          kind + " only from the bucket: " + ofKind);
    }
    assertTrue(
        hub.requestsSince("hub.log", logStart).stream().noneMatch(l -> l.contains("/refs")),
        "a bucket has no revision to resolve");
  }

  @Test
  void anEpochThroughAFaultyProxyDeliversEverySampleOnceWithTheSameFrames() throws IOException {
    try (FaultyProxy proxy = FaultyProxy.random(hub.port, 0.2, 1500, 11)) {
      HubHttp http =
          HubServer.client("http://127.0.0.1:" + proxy.port(), tmp.resolve("cache-faulty"));
      HubDataset ds =
          HubDataset.prepare(
              http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {});
      assertEquals(localEpoch(), HubEpochs.epoch(ds));
      assertTrue(proxy.faults() > 0, "the proxy injected faults");
      assertTrue(
          http.retries() >= proxy.faults() / 2,
          "retried: " + http.retries() + " for " + proxy.faults() + " faults");
    }
  }

  @Test
  void aFewFramesOfALargeFileCostAFewBlocksNotTheFile() throws Exception {
    Path served = tmp.resolve("large");
    Files.createDirectories(served.resolve("meta"));
    Files.writeString(served.resolve("meta/info.json"), "{}");
    Path video = org.robostream.testing.Fixtures.video("camera_av1_640x480.mp4");
    Files.copy(video, served.resolve("cam.mp4"));
    Files.copy(
        org.robostream.testing.Fixtures.video("camera_h264_640x480.mp4"),
        served.resolve("cam264.mp4"));
    try (HubServer large = HubServer.start(tmp.resolve("nginx-large"), served)) {
      String url = large.endpoint() + "/datasets/" + HubServer.REPO + "/resolve/v3.0/cam.mp4";
      for (String name : new String[] {"cam.mp4", "cam264.mp4"}) {
        HubHttp http = HubServer.client(large.endpoint(), tmp.resolve("cache-large-" + name));
        String fileUrl = large.endpoint() + "/datasets/" + HubServer.REPO + "/resolve/v3.0/" + name;
        try (org.robostream.codec.Decoder d =
            org.robostream.codec.Decoder.open(
                HttpRangeByteSource.open(http, fileUrl, "an MP4 video"),
                org.robostream.video.VideoDecoderOptions.defaults())) {
          var one =
              org.robostream.codec.HostFrameBuffer.forVideo(
                  d.info(), 1, org.robostream.video.FrameLayout.HWC);
          d.decodeFrames(new int[] {0}, one);
          d.decodeFrames(new int[] {151}, one);
          assertEquals(300, d.info().frameCount());
        }
        long size = Files.size(served.resolve(name));
        assertTrue(
            http.bytesFetched() < size / 3,
            name + ": fetched " + http.bytesFetched() + " of " + size + " bytes for 2 frames");
      }
      // Reading on into a block's last quarter fetches the next block in the background.
      HubHttp fresh = HubServer.client(large.endpoint(), tmp.resolve("cache-readahead"));
      try (HttpRangeByteSource source = HttpRangeByteSource.open(fresh, url, "an MP4 video")) {
        int block = fresh.config().blockBytes();
        long before = fresh.requests();
        source.read(0, ByteBuffer.allocate(block - 100));
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (fresh.requests() == before && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertEquals(before + 1, fresh.requests(), "block 1 was fetched ahead");
        // Joins the read-ahead's fetch if it is still under way: no second request either way.
        source.read(block, ByteBuffer.allocate(1000));
        assertEquals(before + 1, fresh.requests(), "block 1 came from the read-ahead");
      }
    }
  }

  @Test
  void videosRedirectedToAnotherHostNameStreamThereWithoutTheToken() throws IOException {
    // The "CDN" is another host name (localhost) on the Hub's own address and port: only the
    // name tells them apart, as it does for the token.
    HubHttp http = HubServer.client(hub.endpoint(), tmp.resolve("cache-cdn"));
    long hubStart = hub.mark();
    long cdnStart = hub.mark();
    HubDataset ds =
        HubDataset.prepare(
            http,
            HubServer.REPO,
            null,
            "hf://datasets/" + HubServer.REPO + "-cdn@v3.0",
            Optional.of(Set.of(2)),
            Optional.empty(),
            f -> {});
    List<String> expected;
    try (StreamingDataset s =
        HubEpochs.configure(StreamingDataset.builder(local).episodes(List.of(2))).build()) {
      expected = HubEpochs.epoch(s);
    }
    assertEquals(expected, HubEpochs.epoch(ds));
    List<String> cdn = hub.requestsSince("cdn.log", cdnStart);
    assertTrue(
        cdn.stream().anyMatch(l -> l.startsWith("/cdn/videos/") && l.contains("range=bytes=")),
        "videos were range-read from the CDN: " + cdn);
    assertTrue(cdn.stream().anyMatch(l -> l.startsWith("/cdn/data/")), cdn.toString());
    assertTrue(
        cdn.stream().noneMatch(l -> l.contains(HubServer.TOKEN)), "the CDN saw the token: " + cdn);
    List<String> redirected =
        hub.requestsSince("hub.log", hubStart).stream()
            .filter(l -> l.contains("-cdn/resolve/") && l.contains("/videos/"))
            .toList();
    assertFalse(redirected.isEmpty());
    assertTrue(
        redirected.stream().allMatch(l -> l.contains("auth=Bearer " + HubServer.TOKEN)),
        "the Hub itself gets the token: " + redirected);
  }

  @Test
  void revisionsArePinnedToTheirCommitAndEveryFileIsReadThere() throws IOException {
    HubHttp http = HubServer.client(hub.endpoint(), tmp.resolve("cache-refs"));
    HubLocation repo = HubLocation.dataset(HubServer.REPO, null);
    RevisionResolver.Pinned v30 = RevisionResolver.resolve(http, repo, null);
    assertEquals("v3.0", v30.name());
    assertEquals(hub.commitOf("v3.0"), v30.commit());
    assertEquals(null, v30.warning());
    assertEquals("v3.0", RevisionResolver.resolve(http, repo, "v3.2").name());
    assertEquals(hub.commitOf("v2.1"), RevisionResolver.resolve(http, repo, "v2.1").commit());
    assertThrows(HubException.NotFound.class, () -> RevisionResolver.resolve(http, repo, "v4.0"));
    HubException.NotFound none =
        assertThrows(
            HubException.NotFound.class,
            () -> RevisionResolver.resolve(http, repo, "no-such-branch"));
    assertTrue(
        none.getMessage().contains("revision no-such-branch of " + HubServer.REPO),
        none.getMessage());
    RevisionResolver.Pinned untagged =
        RevisionResolver.resolve(
            http, HubLocation.dataset(HubServer.REPO + "-untagged", null), null);
    assertEquals("main", untagged.name());
    assertEquals(hub.commitOf("main"), untagged.commit());
    assertTrue(untagged.warning().contains("no v3.x tag"), untagged.warning());
    // A branch moves: the run reads every file at the commit it pointed to at the start.
    long logStart = hub.mark();
    HubDataset ds =
        HubDataset.prepare(
            http, HubServer.REPO, "main", null, Optional.of(Set.of(1)), Optional.empty(), f -> {});
    String commit = hub.commitOf("main");
    assertEquals(commit, ds.repo().revision());
    assertEquals("main", ds.revision().name());
    List<String> expected;
    try (StreamingDataset s =
        HubEpochs.configure(StreamingDataset.builder(local).episodes(List.of(1))).build()) {
      expected = HubEpochs.epoch(s);
    }
    assertEquals(expected, HubEpochs.epoch(ds));
    List<String> reads =
        hub.requestsSince("hub.log", logStart).stream()
            .filter(l -> l.contains("/resolve/"))
            .toList();
    for (String kind : new String[] {"/meta/", "/data/", "/videos/"}) {
      assertTrue(
          reads.stream().anyMatch(l -> l.contains("/resolve/" + commit + kind)),
          kind + " read at the commit: " + reads);
    }
    assertTrue(
        reads.stream().allMatch(l -> l.contains("/resolve/" + commit + "/")),
        "never at the branch name: " + reads);
  }
}
