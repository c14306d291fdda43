package org.robostream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.V30MetadataTestAccess;
import org.robostream.testing.Datasets;
import org.robostream.testing.Processes;

/** {@code --root} as users type it: the current directory. */
class DatasetRootOptionTest {
  @TempDir Path tmp;

  @Test
  void benchRunsWithTheDatasetAsTheCurrentDirectory() throws Exception {
    Path root = tmp.resolve("my-dataset");
    V30MetadataTestAccess.copyTree(Datasets.tinyPatternV30(), root);
    Path out = tmp.resolve("results");
    List<String> command =
        Processes.cli(
            "bench",
            "--root",
            ".",
            "--num-batches",
            "3",
            "--warmup_batches",
            "1",
            "--batch-size",
            "4",
            "--num-workers",
            "1",
            "--buffer-size",
            "8",
            "--out-dir",
            out.toString());
    Process p =
        new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bench did not finish");
    assertEquals(0, p.exitValue(), output);
    assertTrue(Files.isRegularFile(out.resolve("local_single_bs4_w1_cpu.json")), output);
  }
}
