package org.robostream.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.Fixtures;
import org.robostream.testing.HubServer;
import org.robostream.testing.Processes;
import org.robostream.testing.SummaryTables;

/**
 * The launcher against a real single-node SLURM (scripts/slurm-local.sh: slurm-wlm + munge on
 * loopback): the matrix with all five sources, DECODES=cpu, runs each as a job chained with
 * afterany (the repository and the bucket from nginx on loopback); each result says where its bytes
 * came from, and summarize shows every source apart; the training and the multinode benchmark
 * launchers run as real jobs. Reported skipped (loudly) only when SLURM cannot be installed here
 * (slurm-local.sh exit 3); any other start failure fails.
 */
class SlurmMatrixTest {
  @TempDir Path tmp;

  static Processes.Result run(Map<String, String> env, long timeoutSeconds, String... command)
      throws Exception {
    return Processes.run(env, timeoutSeconds, command);
  }

  /**
   * Starts the local SLURM and returns its SLURM_CONF. Exit 3 of slurm-local.sh (SLURM cannot be
   * installed here) aborts the test: skipped, loudly. Any other failure is the script's and fails
   * the test.
   */
  static String startSlurm(Map<String, String> slurmEnv) throws Exception {
    Processes.Result up =
        run(slurmEnv, 300, "bash", Fixtures.repoRoot() + "/scripts/slurm-local.sh", "start");
    if (up.rc() == 3) {
      System.err.println("*** SKIPPED: SLURM cannot be installed on this machine: " + up.output());
      Assumptions.abort("SLURM cannot be installed here: " + up.output());
    }
    assertEquals(
        0,
        up.rc(),
        "scripts/slurm-local.sh start failed (not an installation" + " problem):\n" + up.output());
    return up.output()
        .lines()
        .filter(l -> l.startsWith("export SLURM_CONF="))
        .map(l -> l.substring("export SLURM_CONF=".length()))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void matrixJobsRunOnARealSlurmAndSummarizeSeesThem() throws Exception {
    String repo = Fixtures.repoRoot().toString();
    Map<String, String> slurmEnv = Map.of("ROBOSTREAM_SLURM_DIR", tmp.resolve("slurm").toString());
    String conf = startSlurm(slurmEnv);
    // The hub source streams the same dataset from nginx in the Hub layout (HF_ENDPOINT reaches
    // the jobs through sbatch's default --export=ALL).
    HubServer hub = HubServer.start(tmp.resolve("nginx"), Datasets.patternV30());
    try {
      Path results = tmp.resolve("results");
      Map<String, String> env = new java.util.HashMap<>(slurmEnv);
      env.putAll(
          Map.of(
              "HF_ENDPOINT",
              hub.endpoint(),
              "HF_LEROBOT_HOME",
              tmp.resolve("hf-cache").toString(),
              "HF_HOME",
              tmp.resolve("hf-home").toString(),
              "REPO_ID",
              HubServer.REPO,
              "BUCKET",
              "hf://buckets/" + HubServer.REPO + "-bucket"));
      env.putAll(
          Map.of(
              "SLURM_CONF",
              conf,
              "SOURCES",
              "local hub bucket warmed_bucket local_mirror",
              "DECODES",
              "cpu",
              "MODES",
              "single",
              "ROOT",
              Datasets.patternV30().toString(),
              "GPUS",
              "0",
              "CPUS_PER_TASK",
              "1",
              "MEM",
              "1G",
              "NUM_BATCHES",
              "8"));
      env.putAll(
          Map.of(
              "BATCH_SIZE",
              "4",
              "CPU_WORKERS",
              "1",
              "CPU_BUFFER",
              "20",
              "OUT_DIR",
              results.toString(),
              "LOG_DIR",
              tmp.resolve("logs").toString(),
              "ROBOSTREAM",
              Processes.cliCommand()));
      Processes.Result submit = run(env, 60, "bash", repo + "/slurm/run_streaming_matrix.sh");
      assertEquals(0, submit.rc(), submit.output());
      List<String> jobs = submit.output().lines().filter(l -> l.startsWith("submitted")).toList();
      assertEquals(5, jobs.size(), submit.output());
      assertTrue(submit.output().contains("summarize"), "prints the summarize hint");
      List<String> names = List.of("local", "hub", "bucket", "warmed_bucket", "local_mirror");
      List<Path> expected =
          names.stream().map(n -> results.resolve(n + "_single_bs4_w1_cpu.json")).toList();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(360);
      while (!expected.stream().allMatch(Files::exists) && System.nanoTime() < deadline) {
        Processes.Result queue = run(Map.of("SLURM_CONF", conf), 30, "squeue", "-h");
        if (queue.output().isBlank()) {
          Thread.sleep(1000); // the last job may just have finished writing
          break;
        }
        Thread.sleep(1000);
      }
      StringBuilder logs = new StringBuilder();
      if (Files.isDirectory(tmp.resolve("logs"))) {
        try (var l = Files.list(tmp.resolve("logs"))) {
          for (Path p : l.toList()) {
            logs.append(p.getFileName()).append(":\n").append(Files.readString(p)).append('\n');
          }
        }
      }
      assertTrue(expected.stream().allMatch(Files::exists), "results missing; job logs:\n" + logs);
      // Each Hub result says where the run's bytes came from; warmed_bucket adds its warm pass.
      Map<String, String> origin =
          Map.of(
              "hub", "repository",
              "bucket", "bucket",
              "warmed_bucket", "bucket",
              "local_mirror", "local_disk");
      com.fasterxml.jackson.databind.ObjectMapper json =
          new com.fasterxml.jackson.databind.ObjectMapper();
      for (int i = 1; i < names.size(); i++) {
        var r = json.readTree(expected.get(i).toFile());
        assertEquals(names.get(i), r.path("source").asText());
        var run = r.path("bytes_from").path("run");
        assertTrue(run.path(origin.get(names.get(i))).path("bytes").asLong() > 0, r.toString());
        assertEquals(names.get(i).equals("warmed_bucket"), r.has("warm_pass"), r.toString());
      }
      Processes.Result summary =
          Processes.run(Map.of(), null, 60, Processes.cli("summarize", results.toString()));
      assertEquals(0, summary.rc(), summary.output());
      List<String> rows =
          SummaryTables.parse(summary.output()).stream()
              .map(r -> r.get("source") + "/" + r.get("run_bytes_from"))
              .toList();
      assertEquals(
          List.of(
              "bucket/bucket",
              "hub/repository",
              "local/",
              "local_mirror/local_disk",
              "warmed_bucket/bucket"),
          rows,
          summary.output());
      assertTrue(Files.isRegularFile(results.resolve("summary.csv")));
    } finally {
      hub.close();
      run(slurmEnv, 60, "bash", repo + "/scripts/slurm-local.sh", "stop");
    }
  }

  @Test
  void theTrainingLauncherRunsTwoRanksAsSlurmTasksThatCoverAnEpoch() throws Exception {
    String repo = Fixtures.repoRoot().toString();
    Map<String, String> slurmEnv = Map.of("ROBOSTREAM_SLURM_DIR", tmp.resolve("slurm").toString());
    String conf = startSlurm(slurmEnv);
    try {
      Path records = tmp.resolve("records");
      Files.createDirectories(records);
      Map<String, String> env =
          new java.util.HashMap<>(
              Map.of(
                  "SLURM_CONF",
                  conf,
                  "ROOT",
                  Datasets.patternV30().toString(),
                  "OUTPUT_DIR",
                  tmp.resolve("out").toString(),
                  "BATCH_SIZE",
                  "6",
                  "WORKERS",
                  "1",
                  "BUFFER",
                  "20",
                  "SAVE_FREQ",
                  "1000",
                  "LOG_FREQ",
                  "5"));
      // Each task maps its own SLURM_LOCALID to a GPU; without one, cuda-or-cpu decodes on the CPU.
      env.put("DECODE", "cuda-or-cpu");
      // $SLURM_PROCID is expanded by each task's shell: one record file per rank.
      env.put(
          "EXTRA",
          "--epochs 1 --n-action-steps 3 --record-indices " + records + "/rank$SLURM_PROCID.txt");
      env.put("ROBOSTREAM", Processes.cliCommand());
      // One folder for the node, named by every rank.
      String frameCache = tmp.resolve("frames") + ":64M";
      env.put("FRAME_CACHE", frameCache);
      // The script's headers ask for 2 nodes x 8 GPUs; the local node gets 1 node, 2 tasks.
      Processes.Result job =
          run(
              env,
              240,
              "sbatch",
              "--wait",
              "--nodes=1",
              "--ntasks=2",
              "--ntasks-per-node=2",
              "--cpus-per-task=1",
              "--gpus-per-node=0",
              "--time=00:05:00",
              "--output=" + tmp.resolve("train-%j.out"),
              repo + "/slurm/train_streaming_multinode.sh");
      String log = "";
      try (var l = Files.list(tmp)) {
        for (Path p : l.filter(f -> f.getFileName().toString().startsWith("train-")).toList()) {
          log += Files.readString(p);
        }
      }
      assertEquals(0, job.rc(), job.output() + log);
      assertTrue(log.contains("rank 0 of 2 (SLURM_PROCID/SLURM_NTASKS)"), log);
      assertTrue(log.contains("rank 1 of 2 (SLURM_PROCID/SLURM_NTASKS)"), log);
      for (int task = 0; task < 2; task++) {
        assertTrue(log.contains("task_device: SLURM_LOCALID=" + task + ","), log);
      }
      List<String> cacheLines = log.lines().filter(l -> l.startsWith("frame_cache {")).toList();
      assertEquals(2, cacheLines.size(), "each rank reports the cache it used:\n" + log);
      for (String line : cacheLines) {
        assertTrue(line.contains("\"spec\" : \"" + frameCache + "\""), line);
        assertTrue(line.contains("\"disabled\" : null"), line);
      }
      try (var files = Files.list(tmp.resolve("frames"))) {
        assertTrue(files.findAny().isPresent(), "the ranks filled the node's folder");
      }
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (int r = 0; r < 2; r++) {
        for (String line : Files.readAllLines(records.resolve("rank" + r + ".txt"))) {
          assertTrue(seen.add(line.split(" ")[1]), "delivered twice: " + line);
        }
      }
      assertEquals(Datasets.totalFrames(Datasets.patternV30()), seen.size());
      // The ranks met where SLURM's variables say (the first node, a port from the job id) and
      // trained one conv policy: a loss per logging window, and the run's last step is a
      // checkpoint holding both ranks' replicas, byte-identical, and rank 0's as the model.
      assertTrue(log.contains("rank 1 of 2 (SLURM_PROCID/SLURM_NTASKS), rendezvous at "), log);
      Path out = tmp.resolve("out");
      for (int r = 0; r < 2; r++) {
        List<String> windows = Files.readAllLines(out.resolve("metrics/rank" + r + ".jsonl"));
        assertFalse(windows.isEmpty(), "rank " + r + " logged");
        for (String w : windows) {
          assertTrue(w.contains("\"loss\""), "rank " + r + " trained: " + w);
        }
      }
      Path last;
      try (var dirs = Files.list(out)) {
        last =
            dirs.filter(d -> d.getFileName().toString().startsWith("checkpoint-"))
                .max(
                    java.util.Comparator.comparingInt(
                        d -> Integer.parseInt(d.getFileName().toString().substring(11))))
                .orElseThrow(() -> new AssertionError("no checkpoint in " + out));
      }
      for (String file : List.of("rank0/policy", "rank1/policy", "model/policy.json")) {
        assertTrue(Files.exists(last.resolve(file)), last.resolve(file).toString());
      }
      assertEquals(
          -1L,
          Files.mismatch(
              last.resolve("rank0/policy/model.safetensors"),
              last.resolve("rank1/policy/model.safetensors")),
          "one model: the replicas are the same bytes");
    } finally {
      run(slurmEnv, 60, "bash", repo + "/scripts/slurm-local.sh", "stop");
    }
  }

  @Test
  void theMultinodeBenchmarkWritesPerNodeResultsFromTheHub() throws Exception {
    String repo = Fixtures.repoRoot().toString();
    Map<String, String> slurmEnv = Map.of("ROBOSTREAM_SLURM_DIR", tmp.resolve("slurm").toString());
    String conf = startSlurm(slurmEnv);
    HubServer hub = HubServer.start(tmp.resolve("nginx"), Datasets.patternV30());
    try {
      Path out = tmp.resolve("multinode");
      Map<String, String> env =
          new java.util.HashMap<>(
              Map.of(
                  "SLURM_CONF",
                  conf,
                  "REPO_ID",
                  HubServer.REPO,
                  "HF_ENDPOINT",
                  hub.endpoint(),
                  "HF_LEROBOT_HOME",
                  tmp.resolve("hf-cache").toString(),
                  "HF_HOME",
                  tmp.resolve("hf-home").toString(),
                  "OUT_DIR",
                  out.toString(),
                  "BATCH_SIZE",
                  "4",
                  "WORKERS",
                  "1",
                  "BUFFER",
                  "20",
                  "NUM_BATCHES",
                  "12"));
      env.put("ROBOSTREAM", Processes.cliCommand());
      // The script's headers ask for 2 exclusive nodes; the local cluster has one.
      Processes.Result job =
          run(
              env,
              300,
              "sbatch",
              "--wait",
              "--nodes=1",
              "--ntasks-per-node=1",
              "--cpus-per-task=1",
              "--gpus-per-node=0",
              "--time=00:05:00",
              "--output=" + tmp.resolve("bench-%j.out"),
              repo + "/slurm/benchmark_streaming_multinode.sh");
      String log = "";
      try (var l = Files.list(tmp)) {
        for (Path p : l.filter(f -> f.getFileName().toString().startsWith("bench-")).toList()) {
          log += Files.readString(p);
        }
      }
      assertEquals(0, job.rc(), job.output() + log);
      for (String mode : new String[] {"single", "sarm"}) {
        Path result = out.resolve("node0").resolve("hub_" + mode + "_bs4_w1_cpu.json");
        assertTrue(Files.isRegularFile(result), "missing " + result + "; log:\n" + log);
        String json = Files.readString(result);
        assertTrue(json.contains("\"revision\" : \"v3.0\""), json);
        assertTrue(json.contains("\"world_size\" : 1") && json.contains("\"node\" : 0"), json);
      }
      assertTrue(log.contains("summarize"), log);
    } finally {
      hub.close();
      run(slurmEnv, 60, "bash", repo + "/scripts/slurm-local.sh", "stop");
    }
  }
}
