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
 * The multinode launchers' command lines without SLURM: a stand-in srun runs the task body once
 * as node 0, a stand-in robostream records its arguments. (SlurmMatrixTest runs them for real.)
 */
class MultinodeLauncherTest {
  @TempDir Path tmp;
  Path calls;
  Map<String, String> env;

  @BeforeEach
  void standIns() throws Exception {
    calls = tmp.resolve("calls");
    Path bin = tmp.resolve("bin");
    Processes.script(bin, "srun", "#!/bin/sh\n"
        + "while [ $# -gt 0 ]; do case \"$1\" in --*) shift ;; *) break ;; esac; done\n"
        + "SLURM_NODEID=0 SLURM_PROCID=0 exec \"$@\"\n");
    Path robostream = Processes.script(bin, "robostream-stand-in",
        "#!/bin/sh\necho \"$*\" >> '" + calls + "'\n");
    env = new HashMap<>();
    for (String knob : List.of("ROOT", "REPO_ID", "DATA_FILES_ROOT", "SOURCE", "DECODE",
        "OUT_DIR", "RESUME_FROM", "EXTRA", "SLURM_SUBMIT_DIR")) {
      env.put(knob, null);
    }
    env.put("PATH", bin + ":" + System.getenv("PATH"));
    env.put("ROBOSTREAM", robostream.toString());
  }

  List<String> launch(String script, Map<String, String> knobs) throws Exception {
    env.putAll(knobs);
    Processes.Result r = Processes.run(env, null, 60, List.of("bash",
        Fixtures.repoRoot().resolve("slurm/" + script).toString()));
    assertEquals(0, r.rc(), r.output());
    List<String> lines = Files.readAllLines(calls);
    Files.delete(calls);
    return lines;
  }

  @Test
  void theBenchmarkLabelsALocalRootLocalAndWritesPerNodeFolders() throws Exception {
    List<String> local = launch("benchmark_streaming_multinode.sh", Map.of("ROOT", "/data/ds",
        "OUT_DIR", "out"));
    assertEquals(2, local.size(), local.toString());
    for (String mode : List.of("single", "sarm")) {
      String call = local.get(mode.equals("single") ? 0 : 1);
      assertTrue(call.startsWith("bench --root /data/ds --mode " + mode), call);
      assertTrue(call.endsWith("--out-dir out/node0"), call);
      assertFalse(call.contains("--source"), "bench labels a --root run local itself: " + call);
    }
    List<String> bucket = launch("benchmark_streaming_multinode.sh", Map.of("ROOT", "",
        "REPO_ID", "owner/ds", "DATA_FILES_ROOT", "hf://buckets/owner/b", "SOURCE",
        "warmed_bucket", "DECODE", "cuda"));
    assertTrue(bucket.get(0).startsWith("bench --repo-id owner/ds --data-files-root"
        + " hf://buckets/owner/b --source warmed_bucket --mode single --video-decode-device cuda"),
        bucket.get(0));
  }

  @Test
  void theTrainingLauncherPassesTheDatasetAndDecodeKnobs() throws Exception {
    List<String> hub = launch("train_streaming_multinode.sh", Map.of("REPO_ID", "owner/ds",
        "DECODE", "cuda-or-cpu", "STEPS", "5", "EXTRA", "--dummy"));
    assertEquals(1, hub.size(), hub.toString());
    assertTrue(hub.get(0).startsWith("train --repo-id owner/ds --output-dir"), hub.get(0));
    assertTrue(hub.get(0).contains("--steps 5"), hub.get(0));
    assertTrue(hub.get(0).contains("--video-decode-device cuda-or-cpu"), hub.get(0));
    assertTrue(hub.get(0).endsWith("--dummy"), hub.get(0));
    List<String> builtIn = launch("train_streaming_multinode.sh", Map.of("REPO_ID", "",
        "DECODE", "cpu"));
    assertTrue(builtIn.get(0).startsWith("train --output-dir"), "no dataset flags: the"
        + " built-in dataset: " + builtIn.get(0));
  }
}
