package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.hub.FaultyProxy.Exchange;
import org.robostream.hub.FaultyProxy.Fault;
import org.robostream.hub.FaultyProxy.Step;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;

/**
 * The local cache of Hub files: one in-use set per cache directory in a process (prewarming never
 * evicts what preparing fetched), least recently used files of other runs evicted first and nothing
 * robostream did not write (the user's datasets in HF_LEROBOT_HOME) ever evicted, a prewarm beyond
 * the limit refused before it downloads, and interrupted downloads resumed with a Range request.
 */
class HubFileCacheTest {
  static final int BLOCK = 16 << 10;
  @TempDir static Path tmp;
  @AutoClose static HubServer hub;
  static Path local;

  @BeforeAll
  static void startHub() throws Exception {
    local = Datasets.cameraMoovAtEnd();
    hub = HubServer.start(tmp.resolve("nginx"), local);
  }

  static HubHttp client(String endpoint, Path cache, long limit) {
    return new HubHttp(
        HubServer.config(endpoint, cache).withBlockBytes(BLOCK).withCacheLimit(limit));
  }

  static long bytes(Path dir, String suffix) throws IOException {
    return files(dir, suffix).stream().mapToLong(p -> p.toFile().length()).sum();
  }

  static List<Path> files(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(suffix)).toList();
    }
  }

  /** A cached file another robostream process left, last used {@code hoursAgo}. */
  static Path leftover(Path cache, String path, int size, int hoursAgo) throws IOException {
    Path file = cache.resolve(HubFileCache.MIRROR_DIR).resolve(path);
    Files.createDirectories(file.getParent());
    Files.write(file, new byte[size]);
    new CacheSidecar(size, "\"old\"").write(file);
    Files.setLastModifiedTime(
        file, FileTime.fromMillis(System.currentTimeMillis() - hoursAgo * 3_600_000L));
    return file;
  }

  @Test
  void prewarmKeepsWhatPrepareFetchedAndEvictsOtherRunsFilesOldestFirst() throws IOException {
    Path cache = tmp.resolve("cache-lru");
    Path oldest = leftover(cache, "datasets/acme/old/v1/a.bin", 20_000, 3);
    Path older = leftover(cache, "datasets/acme/old/v1/b.bin", 20_000, 2);
    long tables = bytes(local.resolve("meta"), "") + bytes(local.resolve("data"), "");
    long videos = bytes(local.resolve("videos"), ".mp4");
    long limit = tables + videos + 20_000 + 1_000; // room for one of the two leftovers
    HubHttp http = client(hub.endpoint(), cache, limit);
    HubDataset ds =
        HubDataset.prepare(
            http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {});
    // A long run: its metadata and Parquet files were fetched long ago, before the leftovers.
    List<Path> prepared = files(ds.metadataRoot(), "");
    for (Path p : prepared) {
      Files.setLastModifiedTime(
          p, FileTime.fromMillis(System.currentTimeMillis() - 5 * 3_600_000L));
    }
    ds.prewarmVideos(f -> {});
    for (Path p : prepared) {
      assertTrue(Files.isRegularFile(p), "in use by this process, never evicted: " + p);
    }
    assertEquals(videos, bytes(ds.dataRoot().resolve("videos"), ".mp4"), "all videos cached");
    assertFalse(Files.exists(oldest), "the least recently used leftover went");
    assertTrue(Files.exists(older), "the other one fits");
    assertTrue(new HubFileCache(http).sizeBytes() <= limit, "within the limit");
    // A second prewarm checks what is cached (size and version), downloads nothing, and the
    // prewarmed mirror streams without fetching video bytes.
    long before = http.bytesFetched();
    ds.prewarmVideos(f -> {});
    assertTrue(
        http.bytesFetched() - before < 100,
        "second prewarm fetched " + (http.bytesFetched() - before) + " bytes");
    before = http.bytesFetched();
    assertEquals(HubEpochs.localEpoch(local), HubEpochs.epoch(ds));
    assertEquals(before, http.bytesFetched(), "videos came from the prewarmed mirror");
  }

  /** A file of {@code size} bytes (sparse: no disk used), last modified {@code hoursAgo}. */
  static Path userFile(Path file, long size, int hoursAgo) throws IOException {
    Files.createDirectories(file.getParent());
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(size);
    }
    Files.setLastModifiedTime(
        file, FileTime.fromMillis(System.currentTimeMillis() - hoursAgo * 3_600_000L));
    return file;
  }

  @Test
  void evictionDeletesOnlyWhatRobostreamWroteNeverTheUsersDatasetsBesideIt() throws IOException {
    Path home = tmp.resolve("cache-home"); // HF_LEROBOT_HOME: LeRobot's own datasets live here
    long tables = bytes(local.resolve("meta"), "") + bytes(local.resolve("data"), "");
    long videos = bytes(local.resolve("videos"), ".mp4");
    long limit = tables + videos + 1_000; // no room for anything but this run
    // A user's recording in LeRobot's layout, older than anything and bigger than the limit; a
    // file someone put in robostream's own directory (no sidecar: robostream did not write it).
    Path recording =
        userFile(
            home.resolve("alice/rec/videos/observation.images.top/chunk-000/" + "file-000.mp4"),
            limit + 1,
            1000);
    Path userMeta = userFile(home.resolve("alice/rec/meta/info.json"), 100, 1000);
    Path stranger =
        userFile(home.resolve(HubFileCache.MIRROR_DIR).resolve("notes.txt"), 5_000, 1000);
    Path robostreams = leftover(home, "datasets/acme/old/v1/a.bin", 20_000, 3);
    HubHttp http = client(hub.endpoint(), home, limit);
    HubDataset ds =
        HubDataset.prepare(
            http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {});
    ds.prewarmVideos(f -> {});
    assertFalse(Files.exists(robostreams), "robostream's own old file was evicted");
    assertTrue(Files.isRegularFile(recording), "the user's recording is still there");
    assertEquals(limit + 1, Files.size(recording));
    assertTrue(Files.isRegularFile(userMeta));
    assertTrue(Files.isRegularFile(stranger), "not robostream's, so not evicted");
    assertTrue(new HubFileCache(http).sizeBytes() <= limit, "robostream's files fit the limit");
    assertThrows(
        IllegalArgumentException.class,
        () -> CacheLru.evict(home, 0, 0, Set.of()),
        "eviction refuses to walk anything but robostream's directory");
    assertTrue(Files.exists(recording));
  }

  @Test
  void prewarmingMoreThanTheLimitFailsBeforeDownloadingAndNamesTheSizes() throws IOException {
    long tables = bytes(local.resolve("meta"), "") + bytes(local.resolve("data"), "");
    long videos = bytes(local.resolve("videos"), ".mp4");
    long limit = tables + videos / 2;
    Path cache = tmp.resolve("cache-small");
    HubHttp http = client(hub.endpoint(), cache, limit);
    HubDataset ds =
        HubDataset.prepare(
            http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {});
    long before = http.bytesFetched();
    CacheLimitException e =
        assertThrows(CacheLimitException.class, () -> ds.prewarmVideos(f -> {}));
    assertEquals(tables + videos, e.neededBytes());
    assertEquals(limit, e.limitBytes());
    for (String said :
        new String[] {
          CacheLimitException.size(tables + videos),
          CacheLimitException.size(videos),
          CacheLimitException.size(limit),
          "ROBOSTREAM_HUB_CACHE_GB",
          cache.toString()
        }) {
      assertTrue(e.getMessage().contains(said), "says " + said + ": " + e.getMessage());
    }
    assertEquals(List.of(), files(cache, ".mp4"), "nothing downloaded");
    assertTrue(
        http.bytesFetched() - before <= files(local.resolve("videos"), ".mp4").size(),
        "only one-byte checks: " + (http.bytesFetched() - before));
  }

  @Test
  void anInterruptedDownloadResumesWithARangeRequestFromWhereItsPartEnds() throws IOException {
    Path cache = tmp.resolve("cache-resume");
    long brokenAt = 3L * BLOCK;
    try (FaultyProxy proxy =
        FaultyProxy.scripted(
            hub.port,
            3000,
            List.of(
                Step.repeated(
                    r -> r.isVideo() && r.rangeStart() == brokenAt, Fault.ERROR_503, 3)))) {
      HubHttp http =
          new HubHttp(
              client("http://127.0.0.1:" + proxy.port(), cache, Long.MAX_VALUE)
                  .config()
                  .withRetry(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5))));
      HubDataset ds =
          HubDataset.prepare(
              http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {});
      assertThrows(HubException.RetriesExhausted.class, () -> ds.prewarmVideos(f -> {}));
      List<Path> parts = files(cache, ".part");
      assertEquals(1, parts.size(), "the interrupted download's part stays: " + parts);
      assertEquals(brokenAt, Files.size(parts.get(0)), "the chunks before the failure");
      int failedAt = proxy.log().size();
      ds.prewarmVideos(f -> {});
      String name = parts.get(0).getFileName().toString().replace(".part", "");
      List<Exchange> resumed =
          proxy.log().subList(failedAt, proxy.log().size()).stream()
              .filter(
                  x ->
                      x.request().target().endsWith(name)
                          && !"bytes=0-0".equals(x.request().range()))
              .toList();
      assertEquals(
          brokenAt,
          resumed.get(0).request().rangeStart(),
          "resumed, not restarted: " + resumed.get(0));
      assertEquals(List.of(), files(cache, ".part"));
      Path video = parts.get(0).resolveSibling(name);
      assertArrayEquals(
          Files.readAllBytes(local.resolve(ds.dataRoot().relativize(video).toString())),
          Files.readAllBytes(video));
    }
  }

  @Test
  void aPartOfAnotherVersionIsDiscardedNotContinued() throws IOException {
    Path cache = tmp.resolve("cache-stale-part");
    try (FaultyProxy proxy = FaultyProxy.scripted(hub.port, 3000, List.of())) {
      HubHttp http = client("http://127.0.0.1:" + proxy.port(), cache, Long.MAX_VALUE);
      HubDataset ds =
          HubDataset.prepare(
              http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {});
      Path video = ds.metadata().episodes().get(0).videos().values().iterator().next().file();
      Path part = ResumableDownload.partOf(video);
      Files.createDirectories(part.getParent());
      Files.write(part, new byte[2 * BLOCK]);
      new CacheSidecar(
              Files.size(local.resolve(ds.dataRoot().relativize(video).toString())),
              "\"another version\"")
          .write(part);
      int before = proxy.log().size();
      ds.prewarmVideos(f -> {});
      Exchange first =
          proxy.log().subList(before, proxy.log().size()).stream()
              .filter(
                  x ->
                      x.request().target().endsWith(video.getFileName().toString())
                          && !"bytes=0-0".equals(x.request().range()))
              .findFirst()
              .orElseThrow();
      assertEquals(0, first.request().rangeStart(), "started over: " + first);
      assertArrayEquals(
          Files.readAllBytes(local.resolve(ds.dataRoot().relativize(video).toString())),
          Files.readAllBytes(video));
    }
  }
}
