package org.robostream.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.robostream.testing.Fixtures;
import org.robostream.testing.Processes;

/**
 * The two-host rig of scripts/tests/hosts.sh, for tests: two nodes and a Hub namespace with their
 * own networks, host names and /dev/shm. A machine where the rig cannot be made (not root, no
 * network namespaces) skips the test: it never passes there.
 */
final class HostsRig {
  /** The rig's name, its namespaces' and host names' prefix (hosts.sh's ROBOSTREAM_HOSTS_NAME). */
  static final String NAME = System.getenv().getOrDefault("ROBOSTREAM_HOSTS_NAME", "rs");

  /** Node 0's address on the job network: rank 0 serves the rendezvous there. */
  static final String NODE0_JOB = "198.51.100.10";

  /** Node 0's address on the data network, which the Hub namespace shares (the job's does not). */
  static final String NODE0_DATA = "203.0.113.10";

  /** The Hub namespace's address on the data network: the nodes' Hub stand-in listens there. */
  static final String HUB_DATA = "203.0.113.1";

  private static final Path SCRIPT = Fixtures.repoRoot().resolve("scripts/tests/hosts.sh");

  private HostsRig() {}

  /** Makes the rig, or skips the test saying why it cannot be made here. */
  static void start() throws Exception {
    start(NAME);
  }

  /**
   * Makes the rig named {@code name} (its own namespaces, beside the default rig's: tests of
   * several classes may run at once), or skips the test.
   */
  static void start(String name) throws Exception {
    Map<String, String> env = Map.of("ROBOSTREAM_HOSTS_NAME", name);
    Processes.Result check = Processes.run(env, 30, SCRIPT.toString(), "check");
    Assumptions.assumeTrue(check.rc() == 0, "no two-host rig here: " + check.output());
    Processes.Result started = Processes.run(env, 60, SCRIPT.toString(), "start");
    if (started.rc() != 0) {
      throw new AssertionError("hosts.sh start failed: " + started.output());
    }
  }

  /** Removes the rig and every process left in it. */
  static void stop() throws Exception {
    stop(NAME);
  }

  /** Removes the rig named {@code name} and every process left in it. */
  static void stop(String name) throws Exception {
    Map<String, String> env = Map.of("ROBOSTREAM_HOSTS_NAME", name);
    Processes.Result stopped = Processes.run(env, 60, SCRIPT.toString(), "stop");
    if (stopped.rc() != 0 && stopped.rc() != 3) {
      throw new AssertionError("hosts.sh stop failed: " + stopped.output());
    }
  }

  /** {@code command} as it runs on {@code node} (0, 1 or "hub"). */
  static List<String> on(Object node, List<String> command) {
    return on(NAME, node, command);
  }

  /** {@code command} as it runs on {@code node} of the rig named {@code name}. */
  static List<String> on(String name, Object node, List<String> command) {
    // env(1) names the rig whatever the caller's environment says.
    List<String> all =
        new ArrayList<>(
            List.of(
                "env",
                "ROBOSTREAM_HOSTS_NAME=" + name,
                SCRIPT.toString(),
                "exec",
                node.toString(),
                "--"));
    all.addAll(command);
    return all;
  }

  /** Whether a TCP connection from {@code node} to {@code address:port} is accepted. */
  static boolean connects(Object node, String address, int port)
      throws IOException, InterruptedException {
    // bash's /dev/tcp: a plain connect, closed at once; the timeout bounds a silent drop.
    String probe = "exec 3<>/dev/tcp/" + address + "/" + port;
    Process p =
        new ProcessBuilder(on(node, List.of("timeout", "5", "bash", "-c", probe)))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return false;
    }
    return p.exitValue() == 0;
  }
}
