package org.robostream.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Fixtures;
import org.robostream.testing.Processes;

/**
 * slurm/run_streaming_matrix.sh without SLURM, as plain processes: --dry-run's sbatch commands for
 * every knob (split back into arguments by bash, job bodies parsed by dash, the /bin/sh of Debian's
 * sbatch --wrap), validation that reports every problem before anything is submitted, and a
 * submission through a stand-in sbatch that answers job ids the way --parsable does.
 */
class MatrixLauncherTest {
  static final List<String> KNOBS =
      List.of(
          "SOURCES",
          "MODES",
          "DECODES",
          "ROOT",
          "REPO_ID",
          "BUCKET",
          "WARM_BUCKET",
          "OUT_DIR",
          "NUM_BATCHES",
          "BATCH_SIZE",
          "TIME",
          "MEM",
          "GPUS",
          "CPU_WORKERS",
          "GPU_WORKERS",
          "CPU_BUFFER",
          "GPU_BUFFER",
          "CPUS_PER_TASK",
          "SERIAL",
          "JAVA_OPTS",
          "ROBOSTREAM",
          "LOG_DIR",
          "ACCOUNT",
          "PARTITION",
          "QOS",
          "FRAME_CACHE");

  @TempDir Path tmp;

  /** The launcher with only {@code knobs} set (every other knob removed from the environment). */
  Processes.Result matrix(Map<String, String> knobs, String... args) throws Exception {
    Map<String, String> env = new HashMap<>();
    KNOBS.forEach(k -> env.put(k, null));
    env.put("LOG_DIR", tmp.resolve("logs").toString());
    env.putAll(knobs);
    List<String> command =
        new ArrayList<>(
            List.of(
                "bash", Fixtures.repoRoot().resolve("slurm/run_streaming_matrix.sh").toString()));
    command.addAll(List.of(args));
    return Processes.run(env, null, 60, command);
  }

  /** The dry run's sbatch lines, each split into its arguments as a shell would. */
  static List<List<String>> sbatchCommands(String output) throws Exception {
    String split =
        "while IFS= read -r line; do case \"$line\" in \"sbatch \"*)"
            + " eval \"a=(${line#sbatch })\"; printf '%s\\0' \"${a[@]}\"; printf '\\1\\0';; esac;"
            + " done";
    Processes.Result r = Processes.run(Map.of(), output, 30, List.of("bash", "-c", split));
    assertEquals(0, r.rc(), r.output());
    List<List<String>> commands = new ArrayList<>();
    List<String> current = new ArrayList<>();
    for (String arg : r.output().split("\0")) {
      if (arg.equals("\1")) {
        commands.add(current);
        current = new ArrayList<>();
      } else {
        current.add(arg);
      }
    }
    return commands;
  }

  static String value(List<String> args, String option) {
    return args.stream()
        .filter(a -> a.startsWith(option + "="))
        .map(a -> a.substring(option.length() + 1))
        .findFirst()
        .orElse(null);
  }

  static String body(List<String> args) {
    return args.get(args.indexOf("--wrap") + 1);
  }

  /** Asserts that dash parses the job body (POSIX sh, no bashisms in its syntax). */
  static void assertPosixSh(String body) throws Exception {
    Processes.Result r = Processes.run(Map.of(), body, 30, List.of("dash", "-n"));
    assertEquals(0, r.rc(), "dash -n rejects the job body: " + r.output() + "\n" + body);
  }

  @Test
  void theDefaultMatrixSkipsUnsetBucketsAndChainsTheHubJobs() throws Exception {
    Processes.Result r = matrix(Map.of(), "--dry-run");
    assertEquals(0, r.rc(), r.output());
    assertTrue(r.output().contains("skipping bucket: BUCKET is not set"), r.output());
    assertTrue(r.output().contains("skipping warmed_bucket: WARM_BUCKET is not set"), r.output());
    assertTrue(r.output().contains("4 job(s) (dry run, nothing submitted)"), r.output());
    assertTrue(r.output().contains("scripts/robostream summarize bench-results"), r.output());
    List<List<String>> jobs = sbatchCommands(r.output());
    List<String> names = jobs.stream().map(j -> value(j, "--job-name")).toList();
    assertEquals(
        List.of(
            "bench_hub_single_cpu",
            "bench_hub_single_cuda",
            "bench_hub_sarm_cpu",
            "bench_hub_sarm_cuda"),
        names);
    for (int i = 0; i < jobs.size(); i++) {
      List<String> job = jobs.get(i);
      boolean cuda = names.get(i).endsWith("cuda");
      assertEquals(
          i == 0 ? null : "afterany:<" + names.get(i - 1) + ">",
          value(job, "--dependency"),
          "SERIAL=1 chains each job after the previous one");
      assertTrue(job.contains("--parsable"));
      assertEquals("1", value(job, "--gpus"));
      assertEquals(cuda ? "6" : "12", value(job, "--cpus-per-task"), "workers + 4");
      assertEquals("64G", value(job, "--mem"));
      assertEquals("01:00:00", value(job, "--time"));
      assertEquals(tmp.resolve("logs") + "/%x-%j.out", value(job, "--output"));
      for (String absent : List.of("--account", "--partition", "--qos")) {
        assertEquals(null, value(job, absent), absent + " is passed only when set");
      }
      String body = body(job);
      assertPosixSh(body);
      assertTrue(body.contains("export ROBOSTREAM_NO_BUILD=1"), "jobs never build: " + body);
      assertTrue(
          body.contains(
              "scripts/robostream bench --repo-id lerobot/robocasa --source hub"
                  + " --mode "
                  + (names.get(i).contains("sarm") ? "sarm" : "single")
                  + " --video-decode-device "
                  + (cuda ? "cuda" : "cpu")
                  + " --batch-size 64"
                  + (cuda
                      ? " --num-workers 2 --buffer-size 1000"
                      : " --num-workers 8 --buffer-size 4000")
                  + " --num-batches 200 --out-dir 'bench-results'"),
          body);
    }
    assertFalse(Files.exists(tmp.resolve("logs")), "a dry run creates nothing");
  }

  @Test
  void everyKnobReachesTheCommandsAndOptionalOnesOnlyWhenSet() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("dataset"));
    Map<String, String> knobs =
        new HashMap<>(
            Map.of(
                "SOURCES",
                "local warmed_bucket local_mirror",
                "ROOT",
                root.toString(),
                "WARM_BUCKET",
                "hf://buckets/owner/warm",
                "REPO_ID",
                "owner/ds",
                "MODES",
                "sarm",
                "DECODES",
                "cpu",
                "GPUS",
                "0",
                "SERIAL",
                "0",
                "ACCOUNT",
                "acct",
                "PARTITION",
                "part"));
    knobs.putAll(
        Map.of(
            "QOS",
            "high",
            "TIME",
            "00:10:00",
            "MEM",
            "2G",
            "CPU_WORKERS",
            "3",
            "CPU_BUFFER",
            "30",
            "NUM_BATCHES",
            "7",
            "BATCH_SIZE",
            "5",
            "CPUS_PER_TASK",
            "2",
            "JAVA_OPTS",
            "-Xmx1g",
            "OUT_DIR",
            tmp.resolve("results").toString()));
    // Single-quoted at submission: the job's shell expands its node's SLURM_TMPDIR.
    knobs.put("FRAME_CACHE", "${SLURM_TMPDIR:-/tmp}/robostream-frames:8G");
    Processes.Result r = matrix(knobs, "--dry-run");
    assertEquals(0, r.rc(), r.output());
    List<List<String>> jobs = sbatchCommands(r.output());
    assertEquals(
        List.of(
            "bench_local_sarm_cpu", "bench_warmed_bucket_sarm_cpu", "bench_local_mirror_sarm_cpu"),
        jobs.stream().map(j -> value(j, "--job-name")).toList());
    for (List<String> job : jobs) {
      assertEquals(null, value(job, "--dependency"), "SERIAL=0 submits in parallel");
      assertEquals(null, value(job, "--gpus"), "GPUS=0: no --gpus");
      assertEquals("acct", value(job, "--account"));
      assertEquals("part", value(job, "--partition"));
      assertEquals("high", value(job, "--qos"));
      assertEquals("00:10:00", value(job, "--time"));
      assertEquals("2G", value(job, "--mem"));
      assertEquals("2", value(job, "--cpus-per-task"));
      String body = body(job);
      assertPosixSh(body);
      assertTrue(body.contains("JAVA_OPTS='-Xmx1g'"), body);
      assertTrue(
          body.contains(
              "--mode sarm --video-decode-device cpu --batch-size 5"
                  + " --num-workers 3 --buffer-size 30 --num-batches 7 --out-dir '"
                  + tmp.resolve("results")
                  + "' --frame-cache ${SLURM_TMPDIR:-/tmp}/robostream-frames:8G"),
          body);
    }
    knobs.remove("FRAME_CACHE");
    for (List<String> job : sbatchCommands(matrix(knobs, "--dry-run").output())) {
      assertFalse(body(job).contains("--frame-cache"), "unset: no cache: " + body(job));
    }
    assertTrue(
        body(jobs.get(0)).contains("bench --root '" + root + "' --source local"),
        body(jobs.get(0)));
    String warm = body(jobs.get(1));
    String data = "--repo-id owner/ds --data-files-root hf://buckets/owner/warm";
    assertTrue(
        warm.contains("scripts/robostream bench " + data + " --source warmed_bucket"),
        "bench warms the bucket itself: " + warm);
    assertFalse(warm.contains("prewarm"), "nothing is copied to the node: " + warm);
    String mirror = body(jobs.get(2));
    assertTrue(
        mirror.contains(
            "scripts/robostream prewarm --repo-id owner/ds && scripts/robostream bench --repo-id"
                + " owner/ds --source local_mirror"),
        "the copy is made before the measurement: " + mirror);
  }

  @Test
  void aLocalMirrorJobCachesUnderScratchWhenNothingElseSaysWhere() throws Exception {
    Path calls = tmp.resolve("calls");
    Path robostream =
        Processes.script(
            tmp.resolve("bin"),
            "robostream-stand-in",
            "#!/bin/sh\necho \"${HF_LEROBOT_HOME:-} $1\" >> '" + calls + "'\n");
    Map<String, String> knobs =
        Map.of(
            "SOURCES",
            "local_mirror",
            "MODES",
            "single",
            "DECODES",
            "cpu",
            "ROBOSTREAM",
            robostream.toString());
    Map<String, String> jobEnv = new HashMap<>();
    jobEnv.put("HF_HOME", null);
    jobEnv.put("HF_LEROBOT_HOME", null);
    for (String scratch : new String[] {"/scratch/me", null}) {
      Processes.Result r = matrix(knobs, "--dry-run");
      assertEquals(0, r.rc(), r.output());
      String body = body(sbatchCommands(r.output()).get(0));
      assertPosixSh(body);
      jobEnv.put("SCRATCH", scratch); // as the job finds it on its node
      Processes.Result job = Processes.run(jobEnv, null, 30, List.of("dash", "-c", body));
      assertEquals(0, job.rc(), job.output());
      String cache = scratch == null ? "" : scratch + "/hf_home/lerobot";
      assertEquals(
          List.of(cache + " prewarm", cache + " bench"),
          Files.readAllLines(calls),
          "the prewarmed mirror and the measurement share the cache");
      Files.delete(calls);
    }
  }

  @Test
  void everyProblemIsReportedAndNothingIsSubmitted() throws Exception {
    Path log = tmp.resolve("sbatch-calls");
    Path bin = tmp.resolve("bin");
    Processes.script(bin, "sbatch", "#!/bin/sh\necho \"$*\" >> '" + log + "'\necho 1\n");
    Map<String, String> knobs =
        new HashMap<>(
            Map.of(
                "PATH",
                bin + ":" + System.getenv("PATH"),
                "SOURCES",
                "hub bucket local",
                "DECODES",
                "cpu cuda",
                "GPUS",
                "0",
                "MODES",
                "single multi",
                "SERIAL",
                "yes",
                "NUM_BATCHES",
                "lots"));
    knobs.put("FRAME_CACHE", "16G");
    Processes.Result r = matrix(knobs);
    assertEquals(2, r.rc(), r.output());
    for (String problem :
        List.of(
            "nothing submitted",
            "SOURCES has bucket but BUCKET is not set",
            "SOURCES has local but ROOT is not set",
            "MODES: unknown mode 'multi'",
            "DECODES has a GPU decode but GPUS=0",
            "SERIAL=yes must be 0 or 1",
            "NUM_BATCHES=lots is not a whole number",
            "FRAME_CACHE=16G must be shared:SIZE, memory:SIZE or DIR:SIZE")) {
      assertTrue(r.output().contains(problem), problem + " in:\n" + r.output());
    }
    assertFalse(Files.exists(log), "sbatch was never called");
    Processes.Result unknown = matrix(Map.of("SOURCES", "s3"), "--dry-run");
    assertEquals(2, unknown.rc(), unknown.output());
    assertTrue(unknown.output().contains("unknown source 's3'"), unknown.output());
  }

  @Test
  void submittedJobsAreChainedOnTheIdsSbatchAnswers() throws Exception {
    Path calls = Files.createDirectories(tmp.resolve("calls"));
    Path bin = tmp.resolve("bin");
    // --parsable answers "<id>;<cluster>" on multi-cluster setups; the launcher keeps the id.
    Processes.script(
        bin,
        "sbatch",
        "#!/bin/sh\nn=$(ls '"
            + calls
            + "' | wc -l)\n"
            + "id=$((41 + n))\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '"
            + calls
            + "'/job$id\necho \"$id;cluster\"\n");
    Path root = Files.createDirectories(tmp.resolve("dataset"));
    Processes.Result r =
        matrix(
            Map.of(
                "PATH",
                bin + ":" + System.getenv("PATH"),
                "SOURCES",
                "local",
                "ROOT",
                root.toString(),
                "DECODES",
                "cpu",
                "GPUS",
                "0",
                "ROBOSTREAM",
                "robostream-under-test"));
    assertEquals(0, r.rc(), r.output());
    assertTrue(r.output().contains("submitted bench_local_single_cpu as job 41"), r.output());
    assertTrue(r.output().contains("submitted bench_local_sarm_cpu as job 42"), r.output());
    assertTrue(r.output().contains("2 job(s)\n"), r.output());
    List<String> second = Files.readAllLines(calls.resolve("job42"));
    assertEquals("afterany:41", value(second, "--dependency"), second.toString());
    assertEquals(null, value(Files.readAllLines(calls.resolve("job41")), "--dependency"));
    assertPosixSh(body(second));
    assertTrue(body(second).contains("robostream-under-test bench --root"), body(second));
    assertTrue(Files.isDirectory(tmp.resolve("logs")), "the log folder exists for the jobs");
    assertEquals(List.of("job41", "job42"), Arrays.stream(calls.toFile().list()).sorted().toList());
  }
}
