package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Processes;

/**
 * `robostream bench` with no dataset flags (the README's main command), as three processes started
 * at once, the way the tasks of a SLURM job start: the default dataset is generated once (the
 * others wait for it under the lock, none deletes another's half-written copy), into
 * $XDG_CACHE_HOME/robostream/samples, and every run measures on it. Shrunk for the test with
 * --default-episodes 2 and the hidden --default-frames-per-episode 20 (the real default takes about
 * two minutes to generate on 2 cores).
 */
class DefaultDatasetCliTest {
  @TempDir Path tmp;

  @Test
  void concurrentRunsWithoutDatasetFlagsGenerateTheDefaultDatasetOnce() throws Exception {
    Path xdg = tmp.resolve("xdg");
    Path home = tmp.resolve("home");
    Map<String, String> env = new HashMap<>();
    env.put("ROBOSTREAM_SAMPLES", null);
    env.put("XDG_CACHE_HOME", xdg.toString());
    env.put("JAVA_TOOL_OPTIONS", "-Duser.home=" + home); // where ~/.cache would be
    List<Process> runs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      runs.add(
          Processes.start(
              env,
              Processes.cli(
                  "bench",
                  "--default-episodes",
                  "2",
                  "--default-frames-per-episode",
                  "20",
                  "--num-batches",
                  "4",
                  "--warmup-batches",
                  "1",
                  "--batch-size",
                  "4",
                  "--num-workers",
                  "1",
                  "--buffer-size",
                  "20",
                  "--out-dir",
                  tmp.resolve("out" + i).toString())));
    }
    int generated = 0;
    for (Process p : runs) {
      String out = new String(p.getInputStream().readAllBytes());
      assertTrue(p.waitFor(300, TimeUnit.SECONDS), out);
      assertEquals(0, p.exitValue(), out);
      generated += out.split("generating the default dataset", -1).length - 1;
    }
    assertEquals(1, generated, "three runs at once generate the dataset once");
    Path samples = xdg.resolve("robostream/samples");
    assertTrue(Files.isRegularFile(samples.resolve("camera-3x256-g2-e2-f20/meta/info.json")));
    assertTrue(Files.isRegularFile(samples.resolve("camera-3x256-g2-e2-f20.complete")));
    try (Stream<Path> left = Files.list(samples)) {
      assertFalse(
          left.anyMatch(p -> p.getFileName().toString().contains(".partial-")),
          "no half-written copy left behind");
    }
    assertFalse(Files.exists(home.resolve(".cache")), "XDG_CACHE_HOME is honoured");
    for (int i = 0; i < 3; i++) {
      JsonNode r =
          Json.MAPPER.readTree(
              tmp.resolve("out" + i).resolve("local_single_bs4_w1_cpu.json").toFile());
      assertEquals("camera-3x256-g2-e2-f20", r.get("repo_id").asText());
      assertEquals(3, r.get("num_cameras").asInt());
      assertTrue(r.get("frames_measured").asLong() > 0, r.toString());
    }
  }
}
