package org.robostream.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.robostream.hub.HubConfig;
import org.robostream.hub.HubHttp;
import org.robostream.hub.RetryPolicy;

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

  /** The address it listens on: loopback, or the rig's Hub namespace's data address. */
  public final String address;

  private HubServer(Path state, int port, String address) {
    this.state = state;
    this.port = port;
    this.address = address;
  }

  public static HubServer start(Path state, Path dataset) throws IOException, InterruptedException {
    return start(state, dataset, REPO);
  }

  /** Serves {@code dataset} as the repository {@code repo} (owner/name). */
  public static HubServer start(Path state, Path dataset, String repo)
      throws IOException, InterruptedException {
    return start(state, dataset, repo, java.util.List.of(), "127.0.0.1");
  }

  /**
   * Serves {@code dataset} as {@code repo} on {@code address}, the script run behind {@code
   * launcher} (a command prefix that runs it elsewhere, such as another network namespace; empty:
   * here).
   */
  public static HubServer start(
      Path state, Path dataset, String repo, java.util.List<String> launcher, String address)
      throws IOException, InterruptedException {
    Path script = Fixtures.repoRoot().resolve("scripts/tests/hub-nginx.sh");
    java.util.List<String> command = new java.util.ArrayList<>(launcher);
    command.addAll(
        java.util.List.of(
            "bash",
            script.toString(),
            "start",
            state.toString(),
            dataset.toString(),
            repo,
            address));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
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
    return new HubServer(state, Integer.parseInt(lines[lines.length - 1].trim()), address);
  }

  public String endpoint() {
    return "http://" + address + ":" + port;
  }

  /** The commit the fixture's revision API resolves {@code revision} (v3.0, v2.1, main) to. */
  public String commitOf(String revision) throws IOException {
    String json =
        java.nio.file.Files.readString(state.resolve("api/revision/" + revision + ".json"));
    return json.replaceAll(".*\"sha\":\"([0-9a-f]{40})\".*", "$1");
  }

  /**
   * Lines an access log ("URI auth=... range=... end=... took=...") got after its first {@code
   * skip}: "hub.log" for the Hub, "cdn.log" for the host its CDN repository redirects to.
   */
  public java.util.List<String> log(String name, int skip) throws IOException {
    Path file = state.resolve(name);
    java.util.List<String> lines =
        java.nio.file.Files.isRegularFile(file)
            ? java.nio.file.Files.readAllLines(file)
            : java.util.List.of();
    return lines.subList(Math.min(skip, lines.size()), lines.size());
  }

  /** Now, as {@link #requestsSince} counts: the start of a test's window of requests. */
  public long mark() {
    return System.currentTimeMillis();
  }

  /**
   * The lines of access log {@code name} ("hub.log" or "cdn.log") for requests that began at or
   * after {@code mark} and ended before this call. nginx logs a request when it ends, which on a
   * loaded machine can be a while after the client had its last byte, so two rules keep tests'
   * windows apart: a line counts by its request's start (its end less its duration, never later
   * than the true start), so an earlier test's request logged late stays out; and a settling
   * request to the same server is logged before this returns (one worker logs in order), so this
   * test's own requests are all in.
   */
  public java.util.List<String> requestsSince(String name, long mark) throws IOException {
    String settled = settle(name.equals("cdn.log") ? "localhost" : "127.0.0.1");
    java.util.List<String> since = new java.util.ArrayList<>();
    long deadline = System.nanoTime() + 30_000_000_000L;
    java.util.List<String> lines = log(name, 0);
    while (lines.stream().noneMatch(l -> l.startsWith(settled))) {
      if (System.nanoTime() > deadline) {
        throw new IOException(settled + " was not logged in " + name + " within 30 s");
      }
      sleep();
      lines = log(name, 0);
    }
    java.util.regex.Pattern times =
        java.util.regex.Pattern.compile(" end=(\\d+)\\.(\\d{3}) took=(\\d+)\\.(\\d{3})$");
    for (String line : lines) {
      if (line.startsWith(SETTLE)) {
        continue;
      }
      java.util.regex.Matcher m = times.matcher(line);
      if (!m.find()) {
        throw new IllegalStateException("an access log line without its times: " + line);
      }
      long end = Long.parseLong(m.group(1)) * 1000 + Long.parseLong(m.group(2));
      long took = Long.parseLong(m.group(3)) * 1000 + Long.parseLong(m.group(4));
      // +1: both are rounded to milliseconds; a request of this window must not fall out.
      if (end - took + 1 >= mark) {
        since.add(line);
      }
    }
    return since;
  }

  private static final String SETTLE = "/robostream-settle/";
  private static final java.util.concurrent.atomic.AtomicLong SETTLES =
      new java.util.concurrent.atomic.AtomicLong();

  /** Sends a settling request to the server named {@code host}; returns its logged URI. */
  private String settle(String host) throws IOException {
    String uri = SETTLE + ProcessHandle.current().pid() + "-" + SETTLES.incrementAndGet();
    try (java.net.Socket s = new java.net.Socket(address, port)) {
      s.getOutputStream()
          .write(
              ("GET " + uri + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                  .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      s.getInputStream().readAllBytes();
    }
    return uri + " ";
  }

  private static void sleep() throws IOException {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the access log settled", e);
    }
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
