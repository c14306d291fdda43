package org.robostream.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Fixtures;
import org.robostream.testing.Processes;

/**
 * The multinode launchers' command lines without SLURM: a stand-in srun runs the task body as node
 * 0's tasks (STANDIN_TASKS of them, node-local ids 0, 1, ...), a stand-in robostream records its
 * arguments and the Hub cache it was given. (SlurmMatrixTest runs them for real.)
 */
class MultinodeLauncherTest {
  @TempDir Path tmp;
  Path calls;
  Path caches;
  Map<String, String> env;

  @BeforeEach
  void standIns() throws Exception {
    calls = tmp.resolve("calls");
    caches = tmp.resolve("caches");
    Path bin = tmp.resolve("bin");
    Processes.script(
        bin,
        "srun",
        "#!/bin/sh\n"
            + "while [ $# -gt 0 ]; do case \"$1\" in --*) shift ;; *) break ;; esac; done\n"
            + "i=0\nwhile [ $i -lt \"${STANDIN_TASKS:-1}\" ]; do\n"
            + "  SLURM_NODEID=0 SLURM_PROCID=$i SLURM_LOCALID=$i \"$@\" || exit $?\n"
            + "  i=$((i + 1))\ndone\n");
    Path robostream =
        Processes.script(
            bin,
            "robostream-stand-in",
            "#!/bin/sh\necho \"$*\" >> '"
                + calls
                + "'\necho \"${HF_LEROBOT_HOME:-}\" >> '"
                + caches
                + "'\n");
    env = new HashMap<>();
    for (String knob :
        List.of(
            "ROOT",
            "REPO_ID",
            "DATA_FILES_ROOT",
            "SOURCE",
            "DECODE",
            "OUT_DIR",
            "RESUME_FROM",
            "EXTRA",
            "SPLIT",
            "FRAME_CACHE",
            "MODEL_DEVICE",
            "DIST_TIMEOUT",
            "MASTER_ADDR",
            "MASTER_PORT",
            "MAIN_PORT",
            "ROBOSTREAM_LAUNCHER",
            "SLURM_TMPDIR",
            "SLURM_SUBMIT_DIR",
            "SLURM_NTASKS_PER_NODE",
            "SLURM_GPUS_PER_NODE",
            "CUDA_VISIBLE_DEVICES",
            "SCRATCH",
            "HF_HOME",
            "HF_LEROBOT_HOME")) {
      env.put(knob, null);
    }
    env.put("PATH", bin + ":" + System.getenv("PATH"));
    env.put("ROBOSTREAM", robostream.toString());
  }

  Processes.Result run(String script, Map<String, String> knobs, String... args) throws Exception {
    env.putAll(knobs);
    List<String> command =
        new java.util.ArrayList<>(
            List.of("bash", Fixtures.repoRoot().resolve("slurm/" + script).toString()));
    command.addAll(List.of(args));
    return Processes.run(env, null, 60, command);
  }

  List<String> launch(String script, Map<String, String> knobs) throws Exception {
    Processes.Result r = run(script, knobs);
    assertEquals(0, r.rc(), r.output());
    List<String> lines = Files.readAllLines(calls);
    Files.delete(calls);
    return lines;
  }

  /** The --video-decode-device of each recorded call. */
  static List<String> decodeDevices(List<String> calls) {
    return calls.stream().map(c -> c.replaceAll(".*--video-decode-device (\\S+).*", "$1")).toList();
  }

  @Test
  void theBenchmarkLabelsALocalRootLocalAndWritesPerNodeFolders() throws Exception {
    List<String> local =
        launch("benchmark_streaming_multinode.sh", Map.of("ROOT", "/data/ds", "OUT_DIR", "out"));
    assertEquals(2, local.size(), local.toString());
    for (String mode : List.of("single", "sarm")) {
      String call = local.get(mode.equals("single") ? 0 : 1);
      assertTrue(call.startsWith("bench --root /data/ds --mode " + mode), call);
      assertTrue(call.endsWith("--out-dir out/node0"), call);
      assertFalse(call.contains("--source"), "bench labels a --root run local itself: " + call);
    }
    // warmed_bucket: each node's bench warms the bucket itself; nothing is copied before srun.
    List<String> warmed = launch("benchmark_streaming_multinode.sh", bucketEnv("warmed_bucket"));
    assertEquals(2, warmed.size(), warmed.toString());
    assertTrue(
        warmed
            .get(0)
            .startsWith(
                "bench --repo-id owner/ds --data-files-root"
                    + " hf://buckets/owner/b --source warmed_bucket --mode single --video-decode-device"
                    + " cuda:0"),
        warmed.get(0));
    // local_mirror: copied to the shared cache once, before the nodes read that copy.
    List<String> mirror = launch("benchmark_streaming_multinode.sh", bucketEnv("local_mirror"));
    assertEquals(
        "prewarm --repo-id owner/ds --data-files-root hf://buckets/owner/b",
        mirror.get(0),
        "mirrored once, before the nodes measure");
    assertTrue(mirror.get(1).contains("--source local_mirror --mode single"), mirror.get(1));
  }

  private static Map<String, String> bucketEnv(String source) {
    return Map.of(
        "ROOT",
        "",
        "REPO_ID",
        "owner/ds",
        "DATA_FILES_ROOT",
        "hf://buckets/owner/b",
        "SOURCE",
        source,
        "DECODE",
        "cuda");
  }

  @Test
  void everyNodeBenchmarksTheWholeDatasetUnlessSplitIsAsked() throws Exception {
    List<String> whole = launch("benchmark_streaming_multinode.sh", Map.of("ROOT", "/data/ds"));
    assertTrue(whole.stream().noneMatch(c -> c.contains("--split-by-rank")), whole.toString());
    List<String> split =
        launch("benchmark_streaming_multinode.sh", Map.of("ROOT", "/data/ds", "SPLIT", "1"));
    assertTrue(split.stream().allMatch(c -> c.contains(" --split-by-rank ")), split.toString());
    Processes.Result wrong =
        run("benchmark_streaming_multinode.sh", Map.of("ROOT", "/data/ds", "SPLIT", "yes"));
    assertEquals(2, wrong.rc(), wrong.output());
    assertTrue(wrong.output().contains("SPLIT=yes must be 0"), wrong.output());
  }

  @Test
  void eachTrainingTaskDecodesOnItsOwnGpuThroughCudaVisibleDevices() throws Exception {
    Map<String, String> four = Map.of("DECODE", "cuda", "STANDIN_TASKS", "4");
    assertEquals(
        List.of("cuda:0", "cuda:1", "cuda:2", "cuda:3"),
        decodeDevices(launch("train_streaming_multinode.sh", four)),
        "CUDA_VISIBLE_DEVICES unset: task i takes the node's GPU i");
    env.put("CUDA_VISIBLE_DEVICES", "4,5,6,7");
    assertEquals(
        List.of("cuda:0", "cuda:1", "cuda:2", "cuda:3"),
        decodeDevices(launch("train_streaming_multinode.sh", four)),
        "CUDA numbers the visible GPUs from 0: task i takes the i-th");
    env.put("CUDA_VISIBLE_DEVICES", "6");
    assertEquals(
        List.of("cuda:0", "cuda:0", "cuda:0", "cuda:0"),
        decodeDevices(launch("train_streaming_multinode.sh", four)),
        "a task bound to one GPU sees it as cuda:0");
    env.put("CUDA_VISIBLE_DEVICES", "2,3");
    Processes.Result tooMany =
        run("train_streaming_multinode.sh", Map.of("DECODE", "cuda-or-cpu", "STANDIN_TASKS", "3"));
    assertEquals(2, tooMany.rc(), tooMany.output());
    assertTrue(
        tooMany.output().contains("SLURM_LOCALID=2 has no GPU of its own: 2 visible"),
        tooMany.output());
    assertEquals(
        List.of("cuda-or-cpu:0", "cuda-or-cpu:1"),
        decodeDevices(Files.readAllLines(calls)),
        "the tasks with a GPU started");
    Files.delete(calls);
    assertEquals(
        List.of("cpu", "cpu"),
        decodeDevices(
            launch("train_streaming_multinode.sh", Map.of("DECODE", "cpu", "STANDIN_TASKS", "2"))));
  }

  @Test
  void theDryRunsShowEachTasksDeviceAndRunNothing() throws Exception {
    Processes.Result train =
        run(
            "train_streaming_multinode.sh",
            Map.of("DECODE", "cuda", "SLURM_NTASKS_PER_NODE", "4"),
            "--dry-run");
    assertEquals(0, train.rc(), train.output());
    assertTrue(
        train.output().contains("srun sh -c 'device=$(slurm/task_device.sh cuda)"), train.output());
    assertTrue(train.output().contains("shown as 0,1,2,3,4,5,6,7"), train.output());
    for (int i = 0; i < 4; i++) {
      assertTrue(
          train
              .output()
              .contains(
                  "SLURM_LOCALID="
                      + i
                      + ", CUDA_VISIBLE_DEVICES="
                      + "0,1,2,3,4,5,6,7: cuda:"
                      + i
                      + " (the node's GPU "
                      + i
                      + ")"),
          train.output());
    }
    assertFalse(train.output().contains("SLURM_LOCALID=4"), "4 tasks per node");
    env.put("CUDA_VISIBLE_DEVICES", "4,5,6,7");
    Processes.Result masked = run("train_streaming_multinode.sh", Map.of(), "--dry-run");
    assertTrue(
        masked
            .output()
            .contains(
                "SLURM_LOCALID=2, CUDA_VISIBLE_DEVICES=4,5,6,7: cuda:2" + " (the node's GPU 6)"),
        masked.output());
    Processes.Result bench =
        run(
            "benchmark_streaming_multinode.sh",
            Map.of("ROOT", "/data/ds", "DECODE", "cuda"),
            "--dry-run");
    assertEquals(0, bench.rc(), bench.output());
    assertTrue(bench.output().contains("1 task(s), DECODE=cuda"), bench.output());
    assertTrue(
        bench
            .output()
            .contains(
                "SLURM_LOCALID=0, CUDA_VISIBLE_DEVICES=4,5,6,7: cuda:0" + " (the node's GPU 4)"),
        bench.output());
    // What the job will ask SLURM for: the GPUs the tasks are mapped to are requested.
    assertTrue(bench.output().contains("  --gpus-per-node=8\n"), bench.output());
    assertTrue(bench.output().contains("  --cpus-per-task=96\n"), bench.output());
    assertFalse(Files.exists(calls), "a dry run runs nothing");
  }

  @Test
  void theRobocasaLauncherRunsTheReferencesJobOnTopOfTheGenericOne() throws Exception {
    Processes.Result none = run("train_streaming_robocasa.sh", Map.of());
    assertEquals(2, none.rc(), none.output());
    assertTrue(none.output().contains("set REPO_ID"), none.output());
    Processes.Result dry =
        run("train_streaming_robocasa.sh", Map.of("REPO_ID", "owner/robocasa"), "--dry-run");
    assertEquals(0, dry.rc(), dry.output());
    for (String request :
        List.of(
            "--nodes=2",
            "--ntasks-per-node=8",
            "--gpus-per-node=8",
            "--cpus-per-task=12",
            "--exclusive",
            "--time=24:00:00")) {
      assertTrue(dry.output().contains("  " + request + "\n"), request + ": " + dry.output());
    }
    assertTrue(dry.output().contains("SLURM_LOCALID=7, CUDA_VISIBLE_DEVICES="), dry.output());
    List<String> calls =
        launch(
            "train_streaming_robocasa.sh",
            Map.of("REPO_ID", "owner/robocasa", "STANDIN_TASKS", "2", "MAIN_PORT", "29511"));
    assertEquals(2, calls.size(), calls.toString());
    for (String call : calls) {
      assertTrue(
          call.startsWith(
              "train --repo-id owner/robocasa --output-dir outputs/train_robocasa --steps 200000"
                  + " --batch-size 64 --num-workers 12 --buffer-size 4000"),
          call);
      assertTrue(
          call.contains("--model-device auto --dist-timeout 600 --save-freq 2000 --log-freq 50"),
          call);
    }
    assertEquals(List.of("cuda-or-cpu:0", "cuda-or-cpu:1"), decodeDevices(calls));
  }

  @Test
  void hubCachesDefaultToScratchWhenNothingElseSaysWhere() throws Exception {
    Map<String, String> warmed =
        Map.of(
            "REPO_ID",
            "owner/ds",
            "DATA_FILES_ROOT",
            "hf://buckets/owner/w",
            "SOURCE",
            "local_mirror",
            "SCRATCH",
            "/scratch/me");
    assertEquals(3, launch("benchmark_streaming_multinode.sh", warmed).size(), "prewarm, 2 modes");
    assertEquals(
        List.of("/scratch/me/hf_home/lerobot"),
        Files.readAllLines(caches).stream().distinct().toList(),
        "the prewarm and every bench use the same cache");
    Files.delete(caches);
    env.put("HF_LEROBOT_HOME", "/fast/cache");
    launch("train_streaming_multinode.sh", Map.of("REPO_ID", "owner/ds"));
    assertEquals(List.of("/fast/cache"), Files.readAllLines(caches), "an explicit cache stays");
    Files.delete(caches);
    env.put("HF_LEROBOT_HOME", null);
    env.put("HF_HOME", "/hf");
    launch("train_streaming_multinode.sh", Map.of("REPO_ID", "owner/ds"));
    assertEquals(List.of(""), Files.readAllLines(caches), "HF_HOME says where: $HF_HOME/lerobot");
  }

  @Test
  void frameCacheReachesEveryTaskExpandedOnItsNode() throws Exception {
    // Single-quoted at submission, so each task's shell expands its node's SLURM_TMPDIR.
    String spec = "${SLURM_TMPDIR:-/tmp}/robostream-frames:64G";
    env.put("SLURM_TMPDIR", "/node-local/job7");
    env.put("STANDIN_TASKS", "3");
    List<String> train =
        launch("train_streaming_multinode.sh", Map.of("ROOT", "/data/ds", "FRAME_CACHE", spec));
    List<String> bench =
        launch("benchmark_streaming_multinode.sh", Map.of("ROOT", "/data/ds", "FRAME_CACHE", spec));
    assertEquals(3, train.size(), train.toString());
    assertEquals(6, bench.size(), "3 tasks x 2 modes: " + bench);
    for (String call : concat(train, bench)) {
      assertTrue(
          call.contains(" --frame-cache /node-local/job7/robostream-frames:64G"),
          "every rank names the node's folder: " + call);
    }
    for (String call :
        concat(
            launch("train_streaming_multinode.sh", Map.of("ROOT", "/data/ds", "FRAME_CACHE", "")),
            launch("benchmark_streaming_multinode.sh", Map.of("ROOT", "/data/ds")))) {
      assertFalse(call.contains("--frame-cache"), "unset: no cache: " + call);
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  @Test
  void theTrainingLauncherPassesTheDatasetAndDecodeKnobs() throws Exception {
    List<String> hub =
        launch(
            "train_streaming_multinode.sh",
            Map.of(
                "REPO_ID", "owner/ds", "DECODE", "cuda-or-cpu", "STEPS", "5", "EXTRA", "--dummy"));
    assertEquals(1, hub.size(), hub.toString());
    assertTrue(hub.get(0).startsWith("train --repo-id owner/ds --output-dir"), hub.get(0));
    assertTrue(hub.get(0).contains("--steps 5"), hub.get(0));
    assertTrue(hub.get(0).contains("--video-decode-device cuda-or-cpu"), hub.get(0));
    assertTrue(hub.get(0).endsWith("--dummy"), hub.get(0));
    List<String> builtIn =
        launch("train_streaming_multinode.sh", Map.of("REPO_ID", "", "DECODE", "cpu"));
    assertTrue(
        builtIn.get(0).startsWith("train --output-dir"),
        "no dataset flags: the" + " built-in dataset: " + builtIn.get(0));
  }
}
