package org.robostream.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.robostream.source.hub.HubConfig;
import org.robostream.source.hub.HubHttp;
import org.robostream.source.hub.RetryPolicy;

/**
 * The test's Hub: scripts/tests/hub-nginx.sh serving a dataset directory on loopback. When nginx
 * cannot be installed the calling tests are aborted (reported skipped, with the reason), never
 * passed.
 */
public final class HubServer implements AutoCloseable {
  public static final String REPO = "lerobot/pattern";
  public static final String TOKEN = "hf_test_token_never_logged";

  public final Path state;
  public final int port;

  private HubServer(Path state, int port) {
    this.state = state;
    this.port = port;
  }

  public static HubServer start(Path state, Path dataset) throws IOException, InterruptedException {
    return start(state, dataset, REPO);
  }

  /** Serves {@code dataset} as the repository {@code repo} (owner/name). */
  public static HubServer start(Path state, Path dataset, String repo)
      throws IOException, InterruptedException {
    Path script = Fixtures.repoRoot().resolve("scripts/tests/hub-nginx.sh");
    Process p =
        new ProcessBuilder(
                "bash", script.toString(), "start", state.toString(), dataset.toString(), repo)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("hub-nginx.sh did not finish");
    }
    Assumptions.assumeTrue(
        p.exitValue() != 3, "SKIPPED LOUDLY: nginx cannot be installed here: " + out);
    if (p.exitValue() != 0) {
      throw new IOException("hub-nginx.sh failed (" + p.exitValue() + "): " + out);
    }
    String[] lines = out.split("\n");
    return new HubServer(state, Integer.parseInt(lines[lines.length - 1].trim()));
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** The commit the fixture's revision API resolves {@code revision} (v3.0, v2.1, main) to. */
  public String commitOf(String revision) throws IOException {
    String json =
        java.nio.file.Files.readString(state.resolve("api/revision/" + revision + ".json"));
    return json.replaceAll(".*\"sha\":\"([0-9a-f]{40})\".*", "$1");
  }

  /**
   * Lines an access log ("URI auth=... range=...") got after its first {@code skip}: "hub.log" for
   * the Hub, "cdn.log" for the host its CDN repository redirects to.
   */
  public java.util.List<String> log(String name, int skip) throws IOException {
    Path file = state.resolve(name);
    java.util.List<String> lines =
        java.nio.file.Files.isRegularFile(file)
            ? java.nio.file.Files.readAllLines(file)
            : java.util.List.of();
    return lines.subList(Math.min(skip, lines.size()), lines.size());
  }

  /** A client of {@code endpoint} with the test token, a private cache and fast retries. */
  public static HubHttp client(String endpoint, Path cache) {
    return new HubHttp(config(endpoint, cache));
  }

  /** The configuration of {@link #client}: 64 KiB blocks, 12 tries 5..100 ms apart. */
  public static HubConfig config(String endpoint, Path cache) {
    return HubConfig.fromEnvironment(
            Map.of(
                "HF_ENDPOINT",
                endpoint + "/",
                "HF_TOKEN",
                TOKEN,
                "HF_LEROBOT_HOME",
                cache.toString(),
                "HF_HOME",
                cache.toString()))
        .withRetry(new RetryPolicy(12, Duration.ofMillis(5), Duration.ofMillis(100)))
        .withTimeout(Duration.ofMillis(700))
        .withBlockBytes(64 << 10);
  }

  @Override
  public void close() throws IOException, InterruptedException {
    Path script = Fixtures.repoRoot().resolve("scripts/tests/hub-nginx.sh");
    new ProcessBuilder("bash", script.toString(), "stop", state.toString())
        .inheritIO()
        .start()
        .waitFor(30, TimeUnit.SECONDS);
  }
}
