package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** URL building as the Hub expects it, hf:// parsing, and configuration from the environment. */
class HubLocationTest {
  @Test
  void resolveUrlsEncodeTheRevisionWhollyAndThePathBySegment() {
    HubLocation l = HubLocation.dataset("lerobot/aloha_sim", "refs/pr/1");
    assertEquals(
        "https://hf.co/datasets/lerobot/aloha_sim/resolve/refs%2Fpr%2F1/videos/a%20b/c.mp4",
        l.resolveUrl("https://hf.co", "videos/a b/c.mp4"));
    assertEquals(
        "https://hf.co/api/datasets/lerobot/aloha_sim/tree/refs%2Fpr%2F1/meta"
            + "?recursive=true&expand=false",
        l.treeUrl("https://hf.co", "meta"));
    HubLocation bucket = HubLocation.parse("hf://buckets/acme/robot-stream/copy");
    assertEquals(HubLocation.Kind.BUCKET, bucket.kind());
    assertEquals(
        "https://hf.co/buckets/acme/robot-stream/resolve/copy/data/x.parquet",
        bucket.resolveUrl("https://hf.co", "data/x.parquet"));
  }

  @Test
  void hfUrlsParse() {
    HubLocation l = HubLocation.parse("hf://datasets/lerobot/pusht@v3.0/meta");
    assertEquals("lerobot/pusht", l.id());
    assertEquals("v3.0", l.revision());
    assertEquals("meta", l.prefix());
    assertEquals("hf://datasets/lerobot/pusht@v3.0/meta", l.toString());
    assertEquals(null, HubLocation.parse("hf://datasets/lerobot/pusht").revision());
    // The path becomes directories of the local mirror: only a plain relative one.
    for (String bad :
        new String[] {
          "hf://models/a/b",
          "hf://datasets/a",
          "hf://buckets/a/b@v1",
          "/local/path",
          "hf://buckets/a/b/../../x",
          "hf://datasets/a/b@v3.0/meta//x"
        }) {
      assertThrows(IllegalArgumentException.class, () -> HubLocation.parse(bad), bad);
    }
    assertTrue(HubLocation.isHubUrl("hf://datasets/a/b"));
    assertFalse(HubLocation.isHubUrl("/data"));
  }

  @Test
  void configComesFromTheEnvironmentAndNeverShowsTheToken(@TempDir Path home) throws Exception {
    HubConfig anonymous = HubConfig.fromEnvironment(Map.of("HF_HOME", home.toString()));
    assertEquals(HubConfig.DEFAULT_ENDPOINT, anonymous.endpoint());
    assertEquals(null, anonymous.token());
    assertEquals(home.resolve("lerobot"), anonymous.cacheRoot());
    Files.writeString(home.resolve("token"), "hf_from_file\n");
    HubConfig fromFile =
        HubConfig.fromEnvironment(
            Map.of("HF_HOME", home.toString(), "HF_ENDPOINT", "http://mirror.local//"));
    assertEquals("http://mirror.local", fromFile.endpoint());
    assertEquals("hf_from_file", fromFile.token());
    assertTrue(fromFile.tokenOrigin().contains(home.resolve("token").toString()));
    HubConfig fromEnv =
        HubConfig.fromEnvironment(
            Map.of("HF_HOME", home.toString(), "HF_TOKEN", "hf_env", "HF_LEROBOT_HOME", "/cache"));
    assertEquals("hf_env", fromEnv.token());
    assertEquals("HF_TOKEN", fromEnv.tokenOrigin());
    assertEquals(Path.of("/cache"), fromEnv.cacheRoot());
    assertFalse(fromEnv.toString().contains("hf_env"));
    assertEquals(5 << 20, fromEnv.blockBytes());
    HubConfig tuned =
        HubConfig.fromEnvironment(
            Map.of(
                "HF_HOME",
                home.toString(),
                "ROBOSTREAM_HUB_BLOCK_MB",
                "0.5",
                "ROBOSTREAM_HUB_CACHE_GB",
                "2"));
    assertEquals(512 << 10, tuned.blockBytes());
    assertEquals(2L << 30, tuned.cacheLimitBytes());
  }

  @Test
  void theTokenFileIsNotReadWhenImplicitTokensAreDisabledButAnExplicitTokenIsSent(
      @TempDir Path home) throws Exception {
    Files.writeString(home.resolve("token"), "hf_from_file\n");
    HubConfig disabled =
        HubConfig.fromEnvironment(
            Map.of("HF_HOME", home.toString(), "HF_HUB_DISABLE_IMPLICIT_TOKEN", "1"));
    assertEquals(null, disabled.token());
    assertTrue(disabled.tokenOrigin().contains("HF_HUB_DISABLE_IMPLICIT_TOKEN"));
    HubConfig explicit =
        HubConfig.fromEnvironment(
            Map.of(
                "HF_HOME",
                home.toString(),
                "HF_HUB_DISABLE_IMPLICIT_TOKEN",
                "true",
                "HF_TOKEN",
                "hf_env"));
    assertEquals("hf_env", explicit.token());
    HubConfig notSet =
        HubConfig.fromEnvironment(
            Map.of("HF_HOME", home.toString(), "HF_HUB_DISABLE_IMPLICIT_TOKEN", "0"));
    assertEquals("hf_from_file", notSet.token());
  }
}
