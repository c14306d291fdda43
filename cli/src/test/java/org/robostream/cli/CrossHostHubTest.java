package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.bench.NodeTotals;
import org.robostream.testing.Fixtures;
import org.robostream.testing.HubServer;
import org.robostream.testing.Processes;

/**
 * Two simulated hosts ({@link HostsRig}) reading a dataset from a Hub stand-in (nginx in the rig's
 * Hub namespace, reached over the data network): the frame cache is per node, and the per-node
 * benchmark launcher's command lines run on both nodes at once. Two tasks per node, numbered as
 * srun numbers them. The rig is this class's own (name {@value #RIG}), so it runs beside {@link
 * CrossHostTrainTest}'s. Skipped where the rig cannot be made.
 */
class CrossHostHubTest {
  /** This class's rig: namespaces rh-node0, rh-node1, rh-hub. */
  static final String RIG = "rh";

  static final String REPO = "lerobot/tiny";

  /** The dataset's frames: 2 episodes of 16, one camera. */
  static final int FRAMES = 32;

  /** Batches of 4 in one epoch: bench runs exactly two. */
  static final int BATCHES_PER_EPOCH = FRAMES / 4;

  /** Tasks in the job: two per node. */
  static final int TASKS = 4;

  @TempDir static Path tmp;
  static HubServer hub;

  @BeforeAll
  static void rigAndHub() throws Exception {
    HostsRig.start(RIG);
    Path dataset = tmp.resolve("dataset");
    assertEquals(
        0,
        Main.run(
            "make-dataset",
            "--out",
            dataset.toString(),
            "--episodes",
            "2",
            "--frames-per-episode",
            "16",
            "--cameras",
            "1",
            "--size",
            "64x64"));
    hub =
        HubServer.start(
            tmp.resolve("nginx"),
            dataset,
            REPO,
            HostsRig.on(RIG, "hub", List.of()),
            HostsRig.HUB_DATA);
  }

  @AfterAll
  static void removeRig() throws Exception {
    if (hub != null) {
      hub.close();
    }
    HostsRig.stop(RIG);
  }

  /** srun's variables for task {@code rank} of the job (tasks 0 and 1 on node 0). */
  static Map<String, String> srun(int rank) {
    return Map.of(
        "SLURM_PROCID", "" + rank,
        "SLURM_NTASKS", "" + TASKS,
        "SLURM_NODEID", "" + rank / 2,
        "SLURM_LOCALID", "" + rank % 2,
        "SLURM_JOB_NUM_NODES", "2");
  }

  /**
   * Starts {@code command} as task {@code rank} on its node: the Hub at the Hub namespace's
   * address, each node's Hub cache its own folder, no launcher variable from the test's own
   * environment.
   */
  static Process task(int rank, List<String> command, Path log) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(HostsRig.on(RIG, rank / 2, command))
            .directory(Fixtures.repoRoot().toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Set<String> launcher = Set.of("RANK", "WORLD_SIZE", "LOCAL_RANK", "GROUP_RANK", "MASTER_ADDR");
    pb.environment()
        .keySet()
        .removeIf(k -> k.startsWith("SLURM_") || k.startsWith("OMPI_") || launcher.contains(k));
    pb.environment().putAll(srun(rank));
    pb.environment().put("HF_ENDPOINT", hub.endpoint());
    pb.environment().put("HF_LEROBOT_HOME", tmp.resolve("hf-node" + rank / 2).toString());
    pb.environment().put("HF_HOME", tmp.resolve("hf-home").toString());
    pb.environment().remove("HF_TOKEN");
    return pb.start();
  }

  /** Waits for every task; fails with their logs when one fails or runs past 150 s. */
  static void finish(List<Process> tasks, List<Path> logs) throws Exception {
    for (int i = 0; i < tasks.size(); i++) {
      Process p = tasks.get(i);
      if (!p.waitFor(150, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      if (p.isAlive() || p.exitValue() != 0) {
        StringBuilder all = new StringBuilder("a task failed:\n");
        for (Path log : logs) {
          all.append("--- ").append(log.getFileName()).append(":\n").append(Files.readString(log));
        }
        throw new AssertionError(all);
      }
    }
  }

  /** Runs bench as the given tasks at once; waits for them. */
  static void bench(Path out, int... ranks) throws Exception {
    List<Process> running = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    for (int rank : ranks) {
      List<String> cli =
          Processes.cli(
              "bench",
              "--repo-id",
              REPO,
              "--batch-size",
              "4",
              "--num-workers",
              "1",
              "--buffer-size",
              "4",
              "--num-batches",
              "" + 2 * BATCHES_PER_EPOCH,
              "--warmup-batches",
              "2",
              "--device",
              "cpu",
              "--frame-cache",
              "shared:16M",
              "--out-dir",
              out.toString());
      Path log = out.resolveSibling(out.getFileName() + "-rank" + rank + ".log");
      logs.add(log);
      running.add(task(rank, cli, log));
    }
    finish(running, logs);
  }

  /**
   * Each node decodes every frame once; its second task and every second epoch read the node's
   * cache. The tasks start staggered so that each count is certain: node 0's first task alone; then
   * node 0's second and node 1's first at once (node 1's first must decode everything: a cache one
   * node shares with another, one /dev/shm or a folder on a shared file system, would serve it node
   * 0's frames); then node 1's second.
   */
  @Test
  void eachNodeDecodesEveryFrameOnceAndItsSecondTaskAndEpochReadTheNodesCache() throws Exception {
    Path out = tmp.resolve("frame-cache");
    bench(out, 0);
    bench(out, 1, 2);
    bench(out, 3);
    for (int rank = 0; rank < TASKS; rank++) {
      int node = rank / 2;
      Path file = out.resolve("hub_single_bs4_w1_cpu_node" + node + "_rank" + rank + ".json");
      JsonNode r = Json.MAPPER.readTree(file.toFile());
      String where = "node " + node + ", task " + rank + ": " + r.get("epochs");
      assertEquals(RIG + "-node" + node, r.get("hostname").asText(), where);
      JsonNode epochs = r.get("epochs");
      assertEquals(2, epochs.size(), where);
      boolean first = rank % 2 == 0;
      // Epoch 1: the node's first task decodes every frame; its second reads them all.
      assertEquals(first ? FRAMES : 0, epochs.get(0).get("frames_decoded").asInt(), where);
      assertEquals(first ? 0 : FRAMES, epochs.get(0).get("frames_from_cache").asInt(), where);
      // Epoch 2 on every task: nothing decoded.
      assertEquals(0, epochs.get(1).get("frames_decoded").asInt(), where);
      assertEquals(FRAMES, epochs.get(1).get("frames_from_cache").asInt(), where);
      JsonNode cache = r.get("frame_cache");
      assertEquals(first ? FRAMES : 0, cache.get("misses").asInt(), where + " " + cache);
      assertTrue(cache.get("disabled").isNull(), cache.toString());
      assertTrue(r.get("http_requests").asInt() > 0, "read from the Hub namespace: " + r);
    }
  }

  /**
   * The per-node benchmark launcher's dry run prints the command srun runs in every task; run on
   * both nodes at once, two tasks each, against the Hub namespace. Each task's results are named by
   * its node and rank (two tasks share their node's folder), record the host they ran on, and
   * summarize adds them up per node and for the job.
   */
  @Test
  void theLaunchersTasksRunOnBothNodesAndSummarizeTotalsEachNodeAndTheJob() throws Exception {
    Path out = tmp.resolve("multinode");
    Map<String, String> knobs = new HashMap<>();
    for (String unset : List.of("ROOT", "SOURCE", "DATA_FILES_ROOT", "SPLIT", "FRAME_CACHE")) {
      knobs.put(unset, null);
    }
    knobs.putAll(
        Map.of(
            "REPO_ID",
            REPO,
            "OUT_DIR",
            out.toString(),
            "DECODE",
            "cpu",
            "BATCH_SIZE",
            "4",
            "WORKERS",
            "1",
            "BUFFER",
            "4",
            "NUM_BATCHES",
            "" + 2 * BATCHES_PER_EPOCH,
            "ROBOSTREAM",
            Processes.cliCommand()));
    Processes.Result dry =
        Processes.run(
            knobs,
            null,
            60,
            List.of("bash", "slurm/benchmark_streaming_multinode.sh", "--dry-run"));
    assertEquals(0, dry.rc(), dry.output());
    String srun =
        dry.output()
            .lines()
            .filter(l -> l.startsWith("srun sh -c "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no srun line: " + dry.output()));
    // What srun runs in each task: the line without "srun", through a shell that unquotes it.
    List<String> body = List.of("bash", "-c", srun.substring("srun ".length()));
    List<Process> running = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    for (int rank = 0; rank < TASKS; rank++) {
      Path log = tmp.resolve("launcher-rank" + rank + ".log");
      logs.add(log);
      running.add(task(rank, body, log));
    }
    finish(running, logs);

    Map<String, Double> perNode = new HashMap<>();
    for (String mode : List.of("single", "sarm")) {
      for (int rank = 0; rank < TASKS; rank++) {
        int node = rank / 2;
        String name = "hub_" + mode + "_bs4_w1_cpu_node" + node + "_rank" + rank + ".json";
        Path file = out.resolve("node" + node).resolve(name);
        assertTrue(Files.isRegularFile(file), "named by node and rank: " + file);
        JsonNode r = Json.MAPPER.readTree(file.toFile());
        assertEquals(RIG + "-node" + node, r.get("hostname").asText(), r.toString());
        assertEquals(node, r.get("node").asInt());
        assertEquals(rank, r.get("task_rank").asInt());
        assertEquals(1, r.get("world_size").asInt(), "every node reads the whole dataset");
        assertTrue(r.get("frames_measured").asLong() > 0, r.toString());
        perNode.merge(mode + " node" + node, r.get("frames_per_s_node").asDouble(), Double::sum);
      }
    }
    Processes.Result summary =
        Processes.run(Map.of(), null, 60, Processes.cli("summarize", out.toString()));
    assertEquals(0, summary.rc(), summary.output());
    assertTrue(summary.output().contains("frames/s per node"), summary.output());
    List<String> csv = Files.readAllLines(out.resolve("summary_nodes.csv"));
    for (String mode : List.of("single", "sarm")) {
      String config = "hub/" + mode + "/cpu w1 bs4";
      double job = 0;
      for (int node = 0; node < 2; node++) {
        double rate = perNode.get(mode + " node" + node);
        job += rate;
        assertTrue(csv.contains(config + ",node" + node + ",2," + round(rate)), csv.toString());
      }
      assertTrue(csv.contains(config + "," + NodeTotals.JOB + ",4," + round(job)), csv.toString());
    }
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
