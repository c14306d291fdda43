package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;

/**
 * Bad answers are typed errors that name what to check, with the actual values: the path and
 * revision of a 404, where the token came from for a 401/403, which kind of page came instead of
 * which file, the URL and status when retries run out, an untrusted certificate, and a file that
 * changed on the server between two blocks.
 */
class HubErrorsTest {
  @TempDir static Path tmp;
  @AutoClose static HubServer hub;

  @BeforeAll
  static void startHub() throws Exception {
    hub = HubServer.start(tmp.resolve("nginx"), Datasets.patternV30());
  }

  static String resolveUrl(String repo, String revision, String path) {
    return hub.endpoint() + "/datasets/" + repo + "/resolve/" + revision + "/" + path;
  }

  static HubHttp client(String cache) {
    return HubServer.client(hub.endpoint(), tmp.resolve(cache));
  }

  @Test
  void a404NamesThePathAndTheRevision() {
    HubHttp http = client("cache-404");
    HubException.NotFound tag =
        assertThrows(
            HubException.NotFound.class,
            () ->
                HttpRangeByteSource.open(
                    http, resolveUrl(HubServer.REPO, "v3.0", "videos/none.mp4"), "an MP4 video"));
    assertTrue(
        tag.getMessage()
            .contains("no file videos/none.mp4 in dataset " + HubServer.REPO + " at revision v3.0"),
        tag.getMessage());
    // At a pinned commit the message also says what the commit was chosen as.
    RevisionResolver.Pinned pinned =
        RevisionResolver.resolve(http, HubLocation.dataset(HubServer.REPO, null), null);
    HubException.NotFound commit =
        assertThrows(
            HubException.NotFound.class,
            () ->
                HttpRangeByteSource.open(
                    http,
                    resolveUrl(HubServer.REPO, pinned.commit(), "data/chunk-000/none.parquet"),
                    "a Parquet file"));
    assertTrue(
        commit
            .getMessage()
            .contains(
                "no file data/chunk-000/none.parquet in dataset "
                    + HubServer.REPO
                    + " at revision v3.0 (commit "
                    + pinned.commit()
                    + ")"),
        commit.getMessage());
    HubException.NotFound bucket =
        assertThrows(
            HubException.NotFound.class,
            () ->
                HttpRangeByteSource.open(
                    http,
                    hub.endpoint()
                        + "/buckets/"
                        + HubServer.REPO
                        + "-bucket/resolve/videos/none.mp4",
                    "an MP4 video"));
    assertTrue(
        bucket
            .getMessage()
            .contains("no file videos/none.mp4 in bucket " + HubServer.REPO + "-bucket"),
        bucket.getMessage());
  }

  @Test
  void deniedAccessNamesWhereTheTokenCameFrom(@TempDir Path home) throws IOException {
    Path tokenFile = home.resolve("token");
    Files.writeString(tokenFile, "hf_from_the_token_file\n");
    HubHttp fromFile =
        new HubHttp(
            HubConfig.fromEnvironment(
                Map.of("HF_ENDPOINT", hub.endpoint(), "HF_HOME", home.toString())));
    HubException.Unauthorized unauthorized =
        assertThrows(
            HubException.Unauthorized.class,
            () ->
                HttpRangeByteSource.open(
                    fromFile,
                    resolveUrl("lerobot/private", "main", "meta/info.json"),
                    "a JSON file"));
    assertEquals(401, unauthorized.status());
    assertTrue(
        unauthorized.getMessage().contains("HTTP 401 with token file " + tokenFile),
        unauthorized.getMessage());
    assertFalse(unauthorized.getMessage().contains("hf_from_the_token_file"));
    HubException.Unauthorized forbidden =
        assertThrows(
            HubException.Unauthorized.class,
            () ->
                HttpRangeByteSource.open(
                    client("cache-403"),
                    resolveUrl("lerobot/forbidden", "main", "data/chunk-000/file-000.parquet"),
                    "a Parquet file"));
    assertEquals(403, forbidden.status());
    assertTrue(forbidden.getMessage().contains("HTTP 403 with HF_TOKEN"), forbidden.getMessage());
    assertFalse(forbidden.getMessage().contains(HubServer.TOKEN));
  }

  @Test
  void aPageInsteadOfAFileSaysWhichPageCameInsteadOfWhichFile() {
    HubHttp http = client("cache-pages");
    HubException.NotAFile html =
        assertThrows(
            HubException.NotAFile.class,
            () ->
                HttpRangeByteSource.open(
                    http,
                    resolveUrl(HubServer.REPO + "-html", "v3.0", "videos/a.mp4"),
                    "an MP4 video"));
    assertTrue(
        html.getMessage().contains("got an HTML page instead of an MP4 video"), html.getMessage());
    HubException.NotAFile json =
        assertThrows(
            HubException.NotAFile.class,
            () ->
                HttpRangeByteSource.open(
                    http,
                    resolveUrl(HubServer.REPO + "-json", "v3.0", "videos/a.mp4"),
                    "an MP4 video"));
    assertTrue(json.getMessage().contains("got JSON instead of an MP4 video"), json.getMessage());
    HubException.NotAFile parquet =
        assertThrows(
            HubException.NotAFile.class,
            () ->
                HubDataset.prepare(
                    http,
                    HubServer.REPO,
                    null,
                    "hf://datasets/" + HubServer.REPO + "-json@v3.0",
                    Optional.empty(),
                    Optional.empty(),
                    f -> {}));
    assertTrue(
        parquet.getMessage().contains("got JSON instead of a Parquet file"), parquet.getMessage());
    assertTrue(parquet.file().contains(HubServer.REPO + "-json/resolve/"), parquet.file());
  }

  @Test
  void retriesThatRunOutNameTheUrl() {
    HubHttp http =
        new HubHttp(
            client("cache-down")
                .config()
                .withRetry(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2))));
    HubException.RetriesExhausted down =
        assertThrows(
            HubException.RetriesExhausted.class,
            () -> http.getRange("http://127.0.0.1:1/x", 0, 10, "a file"));
    assertTrue(down.getMessage().contains("127.0.0.1:1/x"), down.getMessage());
    assertEquals(0, down.status(), "no answer at all");
  }

  @Test
  void anUntrustedTlsCertificateIsRefusedAtOnce() throws IOException {
    Path portFile = hub.state.resolve("tls-port");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isRegularFile(portFile), "no openssl here: no TLS server");
    HubHttp http = client("cache-tls");
    String url = "https://127.0.0.1:" + Files.readString(portFile).trim() + "/meta/info.json";
    HubException e =
        assertThrows(HubException.class, () -> http.getRange(url, 0, 100, "a JSON file"));
    assertFalse(e instanceof HubException.RetriesExhausted, e.getMessage());
    assertTrue(e.getMessage().contains("TLS verification failed"), e.getMessage());
    assertEquals(0, http.retries(), "not retried");
  }

  @Test
  void aFileChangedOnTheServerBetweenTwoBlocksIsATypedErrorAndRereadingStartsOver()
      throws Exception {
    Path served = tmp.resolve("mutable");
    Files.createDirectories(served.resolve("meta"));
    Files.writeString(served.resolve("meta/info.json"), "{}");
    byte[] content = new byte[200_000];
    new Random(3).nextBytes(content);
    Path file = served.resolve("blob.bin");
    Files.write(file, content);
    try (HubServer mutable = HubServer.start(tmp.resolve("nginx-mutable"), served)) {
      HubHttp http = HubServer.client(mutable.endpoint(), tmp.resolve("cache-changed"));
      int block = http.config().blockBytes();
      String url = mutable.endpoint() + "/datasets/" + HubServer.REPO + "/resolve/v3.0/blob.bin";
      try (HttpRangeByteSource source = HttpRangeByteSource.open(http, url, "a data file")) {
        // Same bytes, another modification time: nginx's ETag changes, as a re-upload's would.
        Files.setLastModifiedTime(
            file, FileTime.fromMillis(System.currentTimeMillis() - 86_400_000L));
        HubException.Changed changed =
            assertThrows(
                HubException.Changed.class,
                () -> source.read(2L * block, ByteBuffer.allocate(100)));
        assertEquals(url, changed.file());
        assertTrue(
            changed.getMessage().contains("changed on the server while being read"),
            changed.getMessage());
      }
      try (HttpRangeByteSource again = HttpRangeByteSource.open(http, url, "a data file")) {
        ByteBuffer all = ByteBuffer.allocate(content.length);
        assertEquals(content.length, again.read(0, all), "the whole file, from the new version");
        assertArrayEquals(content, all.array());
      }
    }
  }
}
