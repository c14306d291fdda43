package org.robostream.jmh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The loopback Hub the tests use (scripts/tests/hub-nginx.sh: nginx serving a dataset folder in the
 * Hub's URL layout) for a benchmark: started in its trial setup, stopped in its teardown.
 */
final class LoopbackHub implements AutoCloseable {
  static final String REPO = "lerobot/jmh";

  private final Path state;
  final int port;

  private LoopbackHub(Path state, int port) {
    this.state = state;
    this.port = port;
  }

  /** Serves {@code dataset} as {@link #REPO} on 127.0.0.1; nginx's files go to {@code state}. */
  static LoopbackHub start(Path state, Path dataset) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(
                "bash", script(), "start", state.toString(), dataset.toString(), REPO, "127.0.0.1")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("hub-nginx.sh did not finish");
    }
    // Exit 3: no nginx here. A benchmark cannot be skipped quietly: it fails, saying why.
    if (p.exitValue() != 0) {
      throw new IOException("hub-nginx.sh failed (" + p.exitValue() + "): " + out);
    }
    String[] lines = out.split("\n");
    return new LoopbackHub(state, Integer.parseInt(lines[lines.length - 1].trim()));
  }

  String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  private static String script() {
    return BenchFixtures.root().resolve("scripts/tests/hub-nginx.sh").toString();
  }

  @Override
  public void close() throws IOException, InterruptedException {
    new ProcessBuilder("bash", script(), "stop", state.toString())
        .inheritIO()
        .start()
        .waitFor(30, TimeUnit.SECONDS);
  }
}
