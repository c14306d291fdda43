package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;
import org.robostream.testing.Processes;

/**
 * robostream train as separate JVM processes: two ranks (SLURM environment) cover an epoch
 * disjointly; a run halted mid-epoch resumes from its last checkpoint and the epoch is delivered
 * exactly once. Skipped, never passed, when the processes cannot be started.
 */
class TrainCliTest {
  @TempDir Path tmp;

  static final int FRAMES = Datasets.totalFrames(Datasets.patternV30());

  private Process start(Map<String, String> env, Path log, String... args) {
    return start(List.of(), env, log, args);
  }

  /** {@code train args} behind {@code wrapper} (a command that runs the rest of its line). */
  private Process start(List<String> wrapper, Map<String, String> env, Path log, String... args) {
    List<String> command = new ArrayList<>(wrapper);
    command.addAll(
        Processes.cli(
            "train",
            "--root",
            Datasets.patternV30().toString(),
            "--batch-size",
            "6",
            "--buffer-size",
            "20",
            "--n-action-steps",
            "3",
            "--log-freq",
            "5"));
    command.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().remove("SLURM_PROCID");
    pb.environment().remove("SLURM_NTASKS");
    pb.environment().putAll(env);
    try {
      return pb.start();
    } catch (java.io.IOException e) {
      Assumptions.abort("cannot start a training process: " + e.getMessage());
      return null;
    }
  }

  private static int finish(Process p, Path log) throws Exception {
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("training process did not finish: " + Files.readString(log));
    }
    return p.exitValue();
  }

  /** "step index" lines → indices, with steps ≤ maxStep. */
  static List<Long> indices(Path file, int maxStep) throws Exception {
    List<Long> out = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      String[] p = line.split(" ");
      if (Integer.parseInt(p[0]) <= maxStep) {
        out.add(Long.parseLong(p[1]));
      }
    }
    return out;
  }

  static final Pattern LOG_LINE =
      Pattern.compile(
          "step (\\d+) \\| (\\d+\\.\\d) frames/s/proc"
              + " \\| (\\d+\\.\\d) frames/s total \\| data wait (\\d+\\.\\d)% \\| model"
              + " (\\d+\\.\\d) ms/step(?: \\| all-reduce (\\d+\\.\\d) ms/step \\((\\d+\\.\\d)%\\))?"
              + "(?: \\| loss (\\S+))?");

  /**
   * The log's throughput lines: step, frames/s/proc, frames/s total, loss (null with --dummy), data
   * wait %, model ms/step, all-reduce ms/step (null with one rank).
   */
  static List<String[]> logLines(Path log) throws Exception {
    List<String[]> out = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      if (line.startsWith("step ")) {
        Matcher m = LOG_LINE.matcher(line);
        assertTrue(m.matches(), "log line format: " + line);
        out.add(
            new String[] {
              m.group(1), m.group(2), m.group(3), m.group(8), m.group(4), m.group(5), m.group(6)
            });
      }
    }
    return out;
  }

  /** Each line of a metrics file: step → loss (as written: the window's mean, full precision). */
  static Map<Integer, Double> losses(Path metricsFile) throws Exception {
    Map<Integer, Double> out = new java.util.TreeMap<>();
    for (String line : Files.readAllLines(metricsFile)) {
      var node = Json.MAPPER.readTree(line);
      if (node.has("loss")) {
        out.put(node.get("step").asInt(), node.get("loss").asDouble());
      }
    }
    return out;
  }

  @Test
  void twoRankProcessesCoverAnEpochDisjointly() throws Exception {
    List<Process> ranks = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      ranks.add(
          start(
              Map.of("SLURM_PROCID", "" + r, "SLURM_NTASKS", "2"),
              tmp.resolve("rank" + r + ".log"),
              "--dummy",
              "--epochs",
              "1",
              "--steps",
              "100000",
              "--num-workers",
              "2",
              "--record-indices",
              tmp.resolve("rank" + r + ".txt").toString(),
              "--output-dir",
              tmp.resolve("out").toString(),
              "--save-freq",
              "1000"));
    }
    Set<Long> seen = new HashSet<>();
    for (int r = 0; r < 2; r++) {
      Path log = tmp.resolve("rank" + r + ".log");
      assertEquals(0, finish(ranks.get(r), log), Files.readString(log));
      assertTrue(Files.readString(log).contains("rank " + r + " of 2 (SLURM_PROCID/SLURM_NTASKS)"));
      List<String[]> lines = logLines(log);
      assertFalse(lines.isEmpty(), "throughput logged: " + Files.readString(log));
      for (String[] l : lines) {
        assertEquals(0, Integer.parseInt(l[0]) % 5, "every --log-freq steps");
        double perProc = Double.parseDouble(l[1]);
        assertTrue(perProc > 0);
        // total = per process x world (2); each printed to 0.1
        assertEquals(2 * perProc, Double.parseDouble(l[2]), 0.2, String.join(" ", l));
        assertNull(l[3], "--dummy trains nothing: no loss");
        assertEquals("0.0", l[5], "--dummy: no model step");
      }
      for (long index : indices(tmp.resolve("rank" + r + ".txt"), Integer.MAX_VALUE)) {
        assertTrue(seen.add(index), "index " + index + " on both ranks or twice");
      }
    }
    assertEquals(FRAMES, seen.size(), "the two ranks together cover the epoch");
  }

  /**
   * Starts ranks 0 and 1 of a 2-rank run as torchrun would (its variables, a free port on the
   * loopback), each logging to {@code <name>-rank<r>.log}; returns their exit codes.
   */
  /** Rank {@code r} of 2 as torchrun starts it, rank 0's store at {@code port}. */
  private static Map<String, String> rankEnv(int port, int r) {
    return Map.of(
        "MASTER_ADDR", "127.0.0.1",
        "MASTER_PORT", "" + port,
        "RANK", "" + r,
        "WORLD_SIZE", "2",
        "LOCAL_RANK", "" + r);
  }

  private int[] twoRanks(String name, String... args) throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    List<Process> ranks = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      List<String> all = new ArrayList<>(List.of("--dist-timeout", "120"));
      all.addAll(List.of(args));
      ranks.add(
          start(
              rankEnv(port, r),
              tmp.resolve(name + "-rank" + r + ".log"),
              all.toArray(String[]::new)));
    }
    int[] rc = new int[2];
    for (int r = 0; r < 2; r++) {
      rc[r] = finish(ranks.get(r), tmp.resolve(name + "-rank" + r + ".log"));
    }
    return rc;
  }

  /**
   * Ranks whose --output-dir names one path that is not one folder (each node's own /tmp, on a
   * cluster): rank 1 runs with a private tmpfs over that path (a mount namespace of its own, root
   * only). Every rank stops before the first step, naming the folder (before: exit 0, and
   * checkpoints without rank 1's part).
   */
  @Test
  void ranksThatDoNotShareTheOutputFolderStopBeforeTheFirstStep() throws Exception {
    Assumptions.assumeTrue(
        new ProcessBuilder("unshare", "--mount", "true").start().waitFor() == 0,
        "no mount namespaces here (root only)");
    Path dir = tmp.resolve("node-local");
    Files.createDirectories(dir);
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String mountThenRun = "mount -t tmpfs -o mode=0700 node1 \"$0\" && exec \"$@\"";
    List<Process> ranks = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      ranks.add(
          start(
              r == 0
                  ? List.of()
                  : List.of(
                      "unshare",
                      "--mount",
                      "--propagation",
                      "private",
                      "sh",
                      "-c",
                      mountThenRun,
                      dir.toString()),
              rankEnv(port, r),
              tmp.resolve("unshared-rank" + r + ".log"),
              "--steps",
              "4",
              "--dist-timeout",
              "60",
              "--output-dir",
              dir.toString()));
    }
    for (int r = 0; r < 2; r++) {
      Path logFile = tmp.resolve("unshared-rank" + r + ".log");
      int rc = finish(ranks.get(r), logFile);
      String log = Files.readString(logFile);
      assertEquals(1, rc, log);
      assertTrue(log.contains("1 of 2 ranks do not see rank 0's file .shared-check-"), log);
      assertTrue(log.contains("a folder they all share"), log);
      assertFalse(log.contains("step 1 "), log);
    }
    try (var left = Files.list(dir)) {
      assertTrue(left.noneMatch(p -> p.getFileName().toString().startsWith(".shared")));
    }
  }

  @Test
  void twoRanksTrainOneModelResumeExactlyAndAResumeWithOneRankSaysWhatChanges() throws Exception {
    Path out = tmp.resolve("out");
    int[] rc =
        twoRanks("straight", "--steps", "10", "--save-freq", "5", "--output-dir", out.toString());
    for (int r = 0; r < 2; r++) {
      Path log = tmp.resolve("straight-rank" + r + ".log");
      assertEquals(0, rc[r], Files.readString(log));
      List<String[]> lines = logLines(log);
      assertFalse(lines.isEmpty(), Files.readString(log));
      for (String[] l : lines) {
        assertNotNull(l[6], "the all-reduce time is logged with two ranks: " + String.join(" ", l));
      }
      var last =
          Json.MAPPER.readTree(
              Files.readAllLines(out.resolve("metrics/rank" + r + ".jsonl")).get(0));
      assertTrue(last.get("all_reduce_ms").asDouble() > 0, last.toString());
      assertTrue(last.get("all_reduce_fraction").asDouble() > 0, last.toString());
    }
    // One model: the replicas are byte-identical at every checkpoint, and rank 0's is the model.
    for (int step : new int[] {5, 10}) {
      Path ckpt = out.resolve("checkpoint-" + step);
      for (String file : List.of("model.safetensors", "optimizer.safetensors")) {
        assertEquals(
            -1L,
            Files.mismatch(
                ckpt.resolve("rank0/policy").resolve(file),
                ckpt.resolve("rank1/policy").resolve(file)),
            step + " " + file);
      }
      assertEquals(
          -1L,
          Files.mismatch(
              ckpt.resolve("rank0/policy/model.safetensors"),
              ckpt.resolve("model/model.safetensors")));
    }
    // Resumed by one rank: it continues, and says what another world size does to the model.
    Path log = tmp.resolve("alone.log");
    Process alone =
        start(
            Map.of(),
            log,
            "--steps",
            "8",
            "--save-freq",
            "4",
            "--resume-from",
            out.resolve("checkpoint-5").toString(),
            "--output-dir",
            tmp.resolve("alone").toString());
    assertEquals(0, finish(alone, log), Files.readString(log));
    assertTrue(
        Files.readString(log).contains("resuming a run of 2 rank(s) with 1"),
        Files.readString(log));
    assertTrue(
        Files.readString(log).contains("effective batch changes from 2 to 1 x --batch-size"),
        Files.readString(log));
    // Both ranks halted abruptly after step 7 and resumed from checkpoint-5 by two new processes:
    // checkpoint-10 holds the uninterrupted run's replicas, Adam state and dataset states exactly.
    Path halted = tmp.resolve("halted");
    String[] run = {"--steps", "10", "--save-freq", "5", "--output-dir", halted.toString()};
    List<String> first = new ArrayList<>(List.of(run));
    first.addAll(List.of("--halt-after-step", "7"));
    assertArrayEquals(new int[] {137, 137}, twoRanks("halt", first.toArray(String[]::new)));
    List<String> again = new ArrayList<>(List.of(run));
    again.addAll(List.of("--resume-from", halted.resolve("checkpoint-5").toString()));
    int[] resumed = twoRanks("resumed", again.toArray(String[]::new));
    for (int r = 0; r < 2; r++) {
      assertEquals(0, resumed[r], Files.readString(tmp.resolve("resumed-rank" + r + ".log")));
      for (String file :
          List.of(
              "policy/model.safetensors",
              "policy/optimizer.safetensors",
              "dataset_state.json",
              "trainer_state.json")) {
        Path rankFile = Path.of("checkpoint-10", "rank" + r, file);
        assertEquals(
            -1L,
            Files.mismatch(out.resolve(rankFile), halted.resolve(rankFile)),
            rankFile.toString());
      }
    }
  }

  @Test
  void aHaltedRunResumesFromItsLastCheckpointExactlyOnce() throws Exception {
    Path out = tmp.resolve("out");
    Path first = tmp.resolve("first.txt");
    Path log1 = tmp.resolve("first.log");
    Process crash =
        start(
            Map.of(),
            log1,
            "--epochs",
            "1",
            "--steps",
            "100000",
            "--save-freq",
            "5",
            "--image-transforms",
            "--halt-after-step",
            "12",
            "--record-indices",
            first.toString(),
            "--output-dir",
            out.toString());
    assertEquals(137, finish(crash, log1), "halted abruptly: " + Files.readString(log1));
    for (String file :
        List.of(
            "rank0/dataset_state.json",
            "rank0/trainer_state.json",
            "rank0/policy/policy.json",
            "rank0/policy/model.safetensors",
            "rank0/policy/optimizer.safetensors",
            "model/policy.json",
            "model/model.safetensors")) {
      assertTrue(Files.isRegularFile(out.resolve("checkpoint-10").resolve(file)), file);
    }
    Path second = tmp.resolve("second.txt");
    Path log2 = tmp.resolve("second.log");
    Process resume =
        start(
            Map.of(),
            log2,
            "--epochs",
            "1",
            "--steps",
            "100000",
            "--save-freq",
            "5",
            "--image-transforms",
            "--resume-from",
            out.resolve("checkpoint-10").toString(),
            "--record-indices",
            second.toString(),
            "--output-dir",
            out.toString());
    assertEquals(0, finish(resume, log2), Files.readString(log2));
    assertTrue(Files.readString(log2).contains("starting at step 10"), Files.readString(log2));
    List<Long> all = new ArrayList<>(indices(first, 10));
    all.addAll(indices(second, Integer.MAX_VALUE));
    assertEquals(FRAMES, all.size(), "nothing lost, nothing repeated");
    assertEquals(FRAMES, new HashSet<>(all).size());
    // The same run without the crash: every later checkpoint's policy (weights, Adam's moments
    // and step counts) and every logged loss are identical, so resuming continues the same
    // optimisation.
    Path straight = tmp.resolve("straight");
    Path log3 = tmp.resolve("straight.log");
    Process uninterrupted =
        start(
            Map.of(),
            log3,
            "--epochs",
            "1",
            "--steps",
            "100000",
            "--save-freq",
            "5",
            "--image-transforms",
            "--output-dir",
            straight.toString());
    assertEquals(0, finish(uninterrupted, log3), Files.readString(log3));
    int compared = 0;
    for (int step = 15; Files.isDirectory(straight.resolve("checkpoint-" + step)); step += 5) {
      for (String file :
          List.of(
              "model/model.safetensors",
              "rank0/policy/model.safetensors",
              "rank0/policy/optimizer.safetensors",
              "rank0/trainer_state.json")) {
        assertEquals(
            -1L,
            Files.mismatch(
                straight.resolve("checkpoint-" + step).resolve(file),
                out.resolve("checkpoint-" + step).resolve(file)),
            step + " " + file);
      }
      compared++;
    }
    assertTrue(compared >= 2, "checkpoints after the resume compared: " + compared);
    List<String> resumedLosses = logLines(log2).stream().map(l -> l[0] + " " + l[3]).toList();
    List<String> straightLosses =
        logLines(log3).stream()
            .filter(l -> Integer.parseInt(l[0]) > 10)
            .map(l -> l[0] + " " + l[3])
            .toList();
    assertEquals(straightLosses, resumedLosses);
    assertTrue(resumedLosses.stream().noneMatch(l -> l.endsWith(" null")), "losses logged");
    // The metrics files, to the last bit: the resumed run appended to the halted run's.
    Map<Integer, Double> resumed = losses(out.resolve("metrics/rank0.jsonl"));
    Map<Integer, Double> straightMetrics = losses(straight.resolve("metrics/rank0.jsonl"));
    assertEquals(straightMetrics, resumed, "every window's loss, before and after the halt");
    assertTrue(straightMetrics.size() >= 4, "losses compared: " + straightMetrics);
  }

  @Test
  void trainsFromAHubDatasetThroughTheLoopbackHub() throws Exception {
    try (HubServer hub = HubServer.start(tmp.resolve("nginx"), Datasets.patternV30())) {
      Map<String, String> env =
          new java.util.HashMap<>(
              Map.of(
                  "HF_ENDPOINT",
                  hub.endpoint(),
                  "HF_LEROBOT_HOME",
                  tmp.resolve("hf").toString(),
                  "HF_HOME",
                  tmp.resolve("hf-home").toString()));
      env.put("HF_TOKEN", null);
      env.put("SLURM_PROCID", null);
      env.put("SLURM_NTASKS", null);
      Path record = tmp.resolve("hub.txt");
      Processes.Result r =
          Processes.run(
              env,
              null,
              120,
              Processes.cli(
                  "train",
                  "--repo-id",
                  HubServer.REPO,
                  "--revision",
                  "v3.0",
                  "--video-decode-device",
                  "cuda-or-cpu",
                  "--video-decoder-cache-size",
                  "4",
                  "--dummy",
                  "--epochs",
                  "1",
                  "--batch-size",
                  "6",
                  "--n-action-steps",
                  "3",
                  "--record-indices",
                  record.toString(),
                  "--output-dir",
                  tmp.resolve("out").toString()));
      assertEquals(0, r.rc(), r.output());
      assertEquals(FRAMES, new HashSet<>(indices(record, Integer.MAX_VALUE)).size(), r.output());
    }
  }

  @Test
  void anEpochWithoutABatchEndsWithAMessageInsteadOfSpinning() throws Exception {
    Map<String, String> env = new java.util.HashMap<>();
    env.put("SLURM_PROCID", null);
    env.put("SLURM_NTASKS", null);
    Processes.Result r =
        Processes.run(
            env,
            null,
            120,
            Processes.cli(
                "train",
                "--root",
                Datasets.patternV30().toString(),
                "--drop-last",
                "--batch-size",
                "" + (FRAMES / 2 + 1),
                "--num-workers",
                "2",
                "--steps",
                "10",
                "--dummy",
                "--output-dir",
                tmp.resolve("out").toString()));
    assertEquals(3, r.rc(), r.output());
    assertTrue(
        r.output()
            .contains(
                "epoch 0 delivered no batch to rank 0 of 1 ("
                    + FRAMES
                    + " frames in the dataset, batch size "
                    + (FRAMES / 2 + 1)
                    + ", partial batches"
                    + " dropped): use a smaller --batch-size"),
        r.output());
  }

  @Test
  void theLastStepIsACheckpointWhenSaveFreqDoesNotDivideTheSteps() throws Exception {
    Path out = tmp.resolve("out");
    Path log = tmp.resolve("log");
    Process p = start(Map.of(), log, "--steps", "7", "--save-freq", "5", "--output-dir", "" + out);
    assertEquals(0, finish(p, log), Files.readString(log));
    assertEquals(5, org.robostream.train.Checkpoint.step(out.resolve("checkpoint-5")));
    assertEquals(7, org.robostream.train.Checkpoint.step(out.resolve("checkpoint-7")));
    for (String file : List.of("model/model.safetensors", "rank0/policy/optimizer.safetensors")) {
      assertTrue(Files.isRegularFile(out.resolve("checkpoint-7").resolve(file)), file);
    }
    assertTrue(Files.readString(log).contains("done: 7 steps"), Files.readString(log));
  }

  @Test
  void modelAndTransformFlagMistakesAreExit2BeforeAnythingRuns() {
    String[][] mistakes = {
      {
        "--model-device",
        "tpu",
        "--model-device must be cpu, cuda, cuda:N (gpu, gpu:N) or auto, not tpu"
      },
      // The CLI ships libtorch's CPU natives: a GPU is refused by name, not a crash at a step.
      {"--model-device", "gpu:0", "--model-device gpu:0: libtorch has no CUDA"},
      {"--dist-timeout", "0", "--dist-timeout must be a positive number of seconds"},
      {"--image-transforms-only", "blur", "--image-transforms: no image transform blur; there are"},
      {"--image-transforms-max-num", "0", "--image-transforms: maxNumTransforms must be >= 1"},
      {"--lr", "0", "--lr must be a positive number"},
      // The loader flags train shares with bench (LoaderOptions), checked alike.
      {"--memory-budget-mb", "0", "--memory-budget-mb"},
      // Its MiB as bytes would pass 2^63 - 1: refused, never wrapped into another budget.
      {
        "--memory-budget-mb",
        "8796093022208",
        "--memory-budget-mb must be at most 8796093022207 (MiB; 2^63 - 1 bytes), got 8796093022208"
      },
      {"--num-workers", "0", "--num-workers"},
      {"--buffer-size", "0", "--buffer-size"},
      {"--batch-size", "0", "--batch-size"},
    };
    for (String[] m : mistakes) {
      String err =
          BenchCliTest.captureErr(
              () ->
                  assertEquals(
                      2,
                      Main.run(
                          "train",
                          "--root",
                          Datasets.patternV30().toString(),
                          "--steps",
                          "1",
                          "--output-dir",
                          tmp.resolve("never").toString(),
                          m[0],
                          m[1]),
                      m[0] + " " + m[1]));
      assertTrue(err.contains(m[2]), m[0] + " " + m[1] + ": " + err);
    }
    assertFalse(Files.exists(tmp.resolve("never")), "nothing ran");
  }

  @Test
  void aWrongResumePathIsAnExit2NamingWhereItLooked() {
    String err =
        BenchCliTest.captureErr(
            () ->
                assertEquals(
                    2,
                    Main.run(
                        "train",
                        "--root",
                        Datasets.patternV30().toString(),
                        "--dummy",
                        "--steps",
                        "1",
                        "--resume-from",
                        "no-such-run/checkpoint-9")));
    assertTrue(
        err.contains(
            "--resume-from: checkpoint no-such-run/checkpoint-9 (relative to the"
                + " working directory: "
                + Path.of("no-such-run/checkpoint-9").toAbsolutePath()
                + ")"
                + " does not exist"),
        err);
  }
}
