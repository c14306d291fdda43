package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules for what a server may name: file paths ({@link ServerPath}) and the URLs it sends the
 * client to ({@link FollowRule}).
 */
class ServerPathTest {
  static final String SERVER = "https://hub.example:443";

  @Test
  void onlyPlainRelativePathsPass() {
    Map<String, String> refused =
        Map.ofEntries(
            Map.entry("", "an empty path"),
            Map.entry("/etc/passwd", "an absolute path"),
            Map.entry("meta/../../x", "a \"..\" segment"),
            Map.entry("..", "a \"..\" segment"),
            Map.entry("meta/./info.json", "a \".\" segment"),
            Map.entry("meta//info.json", "an empty segment"),
            Map.entry("meta/", "an empty segment"),
            Map.entry("meta\\..\\x", "a backslash"),
            Map.entry("C:/Windows/x", "a drive letter"),
            Map.entry("c:x", "a drive letter"),
            Map.entry("meta/info.json\0.mp4", "a control character (U+0000)"),
            Map.entry("meta/a\nb", "a control character (U+000A)"));
    refused.forEach((path, problem) -> assertEquals(problem, ServerPath.problem(path), path));
    for (String ok :
        new String[] {
          "meta/info.json",
          "data/chunk-000/file-000.parquet",
          "videos/observation.images.top/chunk-000/file-000.mp4",
          "a..b/..c/d..",
          "é/ü.json"
        }) {
      assertNull(ServerPath.problem(ok), ok);
    }
  }

  @Test
  void aRefusedPathNamesTheServerAndThePathOnOneLine(@TempDir Path root) {
    HubException.UnsafePath e =
        assertThrows(
            HubException.UnsafePath.class,
            () ->
                ServerPath.resolveInside(
                    root, "meta/x\n../../y", "https://hub.example/tree", SERVER));
    assertEquals("https://hub.example/tree", e.file());
    assertEquals(SERVER, e.server());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
    assertTrue(
        e.getMessage().contains("\"meta/x\\u000a../../y\" from the server " + SERVER),
        e.getMessage());
    assertEquals(
        root.resolve("meta/info.json"),
        ServerPath.resolveInside(root, "meta/info.json", "u", SERVER));
  }

  @Test
  void redirectsAndLinksGoOnlyToHttpOrHttpsAndNeverDownFromHttps() {
    URI https = URI.create("https://huggingface.co/datasets/o/n/resolve/main/a.mp4");
    URI http = URI.create("http://127.0.0.1:8080/datasets/o/n/resolve/main/a.mp4");
    assertEquals(
        URI.create("https://cdn.example/x?sig=1"),
        FollowRule.follow("u", 302, https, "https://cdn.example/x?sig=1"));
    assertEquals(
        URI.create("https://huggingface.co/api/x"), FollowRule.follow("u", 200, https, "/api/x"));
    assertEquals(
        URI.create("https://cdn.example/x"),
        FollowRule.follow("u", 302, http, "https://cdn.example/x"),
        "an upgrade is fine");
    assertEquals(
        URI.create("https://cdn.example/y"),
        FollowRule.follow("u", 302, https, "//cdn.example/y"),
        "keeps https");
    Map<String, String> refused =
        Map.of(
            "http://cdn.example/x", "a downgrade from https to http",
            "file:///etc/passwd", "only http and https are followed",
            "ftp://cdn.example/x", "only http and https are followed",
            "https:///nohost", "no host");
    refused.forEach(
        (target, problem) -> {
          HubException.UnsafeUrl e =
              assertThrows(
                  HubException.UnsafeUrl.class,
                  () -> FollowRule.follow("https://huggingface.co/u", 302, https, target),
                  target);
          assertTrue(e.getMessage().endsWith(problem), e.getMessage());
          assertEquals("https://huggingface.co/u", e.file());
        });
    assertTrue(
        assertThrows(
                HubException.UnsafeUrl.class,
                () -> FollowRule.follow("u", 302, https, "http://a b"))
            .getMessage()
            .contains("not a URL"));
  }
}
