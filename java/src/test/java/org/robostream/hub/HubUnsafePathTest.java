package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;

/**
 * Paths and URLs a server gives are followed only where they belong, against the real nginx
 * fixture: a tree listing entry that climbs out of the mirror (the fixture also serves the server's
 * bytes for the file it names, so a client that followed it would overwrite it), a link inside the
 * mirror that leads out of it, a redirect to a {@code file:} URL and a redirect loop. Nothing is
 * written outside the mirror, and the errors name the server and the path.
 */
class HubUnsafePathTest {
  /** The entry the fixture's NAME-traversal listing holds. */
  static final String TRAVERSAL = "meta/../../../../../alice/rec/victim.txt";

  @TempDir static Path tmp;
  @AutoClose static HubServer hub;

  @BeforeAll
  static void startHub() throws Exception {
    hub = HubServer.start(tmp.resolve("nginx"), Datasets.patternV30());
  }

  /** A user's LeRobot dataset file in {@code home} (HF_LEROBOT_HOME), where the entry leads. */
  static Path victim(Path home) throws IOException {
    Path victim = home.resolve("alice/rec/victim.txt");
    Files.createDirectories(victim.getParent());
    Files.writeString(victim, "alice's recording");
    return victim;
  }

  static List<Path> filesHolding(Path dir, String text) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(
              p -> {
                try {
                  return new String(
                          Files.readAllBytes(p), java.nio.charset.StandardCharsets.ISO_8859_1)
                      .contains(text);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .toList();
    }
  }

  @Test
  void aListingEntryThatClimbsOutOfTheMirrorIsRefusedAndTheUsersFileStaysAsItWas()
      throws IOException {
    Path home = tmp.resolve("home-traversal");
    Path victim = victim(home);
    long logged = hub.mark();
    HubHttp http = HubServer.client(hub.endpoint(), home);
    HubException.UnsafePath e =
        assertThrows(
            HubException.UnsafePath.class,
            () ->
                HubDataset.prepare(
                    http,
                    HubServer.REPO + "-traversal",
                    null,
                    null,
                    Optional.empty(),
                    Optional.empty(),
                    f -> {}));
    assertEquals("alice's recording", Files.readString(victim));
    assertEquals(List.of(), filesHolding(home, "the server bytes"), "nothing of it written");
    assertTrue(
        hub.requestsSince("hub.log", logged).stream().noneMatch(l -> l.contains("victim")),
        "never even downloaded");
    assertEquals(hub.endpoint(), e.server());
    assertEquals(TRAVERSAL, e.path());
    assertTrue(
        e.file().contains("/api/datasets/" + HubServer.REPO + "-traversal/tree/"),
        "names the listing: " + e.file());
    assertTrue(
        e.getMessage()
            .contains(
                "\"" + TRAVERSAL + "\" from the server " + hub.endpoint() + ": a \"..\" segment"),
        e.getMessage());
  }

  @Test
  void aLinkInsideTheMirrorThatLeadsOutIsNeverWrittenThrough() throws IOException {
    Path home = tmp.resolve("home-link");
    HubHttp http = HubServer.client(hub.endpoint(), home);
    HubLocation repo = HubLocation.dataset(HubServer.REPO, hub.commitOf("v3.0"));
    HubFileCache cache = new HubFileCache(http);
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Files.createDirectories(cache.mirrorOf(repo));
    Files.createSymbolicLink(cache.mirrorOf(repo).resolve("meta"), outside);
    HubException.UnsafePath e =
        assertThrows(HubException.UnsafePath.class, () -> cache.fetch(repo, "meta/info.json"));
    try (Stream<Path> written = Files.list(outside)) {
      assertEquals(List.of(), written.toList());
    }
    assertTrue(e.getMessage().contains("leads out of " + cache.mirrorOf(repo)), e.getMessage());
    assertEquals("meta/info.json", e.path());
    assertThrows(
        IllegalArgumentException.class,
        () -> cache.mirrorOf(HubLocation.dataset(HubServer.REPO, "..")),
        "not a directory name");
  }

  @Test
  void redirectsToAFileUrlOrInALoopAreRefusedWithoutRetrying() {
    HubHttp http = HubServer.client(hub.endpoint(), tmp.resolve("home-redirects"));
    String toFile =
        hub.endpoint()
            + "/datasets/"
            + HubServer.REPO
            + "-file-redirect/resolve/v3.0/meta/info.json";
    HubException.UnsafeUrl file =
        assertThrows(
            HubException.UnsafeUrl.class, () -> http.getRange(toFile, 0, 10, "a JSON file"));
    assertEquals(toFile, file.file());
    assertEquals(302, file.status());
    assertTrue(
        file.getMessage()
            .contains("refused to follow \"file:///etc/passwd\": only http" + " and https"),
        file.getMessage());
    String loop = hub.endpoint() + "/datasets/" + HubServer.REPO + "-loop/resolve/v3.0/a.json";
    HubException looped =
        assertThrows(HubException.class, () -> http.getRange(loop, 0, 10, "a JSON file"));
    assertFalse(looped instanceof HubException.RetriesExhausted, looped.getMessage());
    assertTrue(
        looped.getMessage().contains("more than " + HubHttp.MAX_REDIRECTS + " redirects"),
        looped.getMessage());
    assertEquals(0, http.retries(), "neither gets better by retrying");
  }
}
