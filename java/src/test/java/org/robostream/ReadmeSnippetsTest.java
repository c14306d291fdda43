package org.robostream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;

/**
 * README.md's streaming snippets ({@link ReadmeSnippets}) compile and stream a whole epoch: the
 * local one from {@code ./my_lerobot_dataset}, the Hub one from {@code hf://datasets/lerobot/pusht}
 * served by the test Hub (the pattern dataset under that name), each in a JVM of its own with only
 * the environment a user would set.
 */
class ReadmeSnippetsTest {
  @TempDir Path tmp;

  /** What the snippets' train(...) gets for one epoch of the pattern dataset (uint8 frames). */
  static String wholeEpoch() {
    LeRobotMetadata m = LeRobotMetadata.open(Datasets.patternV30(), Optional.empty());
    long samples = m.info().totalFrames();
    int[] frame = m.info().features().get("observation.images.top").shape();
    int action = m.info().features().get("action").shape()[0];
    return "samples "
        + samples
        + " frame_bytes "
        + samples * frame[0] * frame[1] * frame[2]
        + " action_values "
        + samples * action;
  }

  @Test
  void theLocalSnippetStreamsAnEpochOfAFolderNamedByItsPath() throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    Files.createSymbolicLink(work.resolve("my_lerobot_dataset"), Datasets.patternV30());
    String out = run(work, List.of(), "local");
    assertTrue(out.contains(wholeEpoch()), out);
  }

  @Test
  void theHubSnippetStreamsAnEpochFromHfEndpoint() throws Exception {
    try (HubServer hub =
        HubServer.start(tmp.resolve("nginx"), Datasets.patternV30(), "lerobot/pusht")) {
      String out =
          run(
              Files.createDirectories(tmp.resolve("work")),
              List.of(
                  "HF_ENDPOINT=" + hub.endpoint(),
                  "HF_LEROBOT_HOME=" + tmp.resolve("lerobot"),
                  "HF_HOME=" + tmp.resolve("hf-home")),
              "hub");
      assertTrue(out.contains(wholeEpoch()), out);
      String videos = "/datasets/lerobot/pusht/resolve/" + hub.commitOf("v3.0") + "/videos/";
      assertTrue(
          hub.log("hub.log", 0).stream()
              .anyMatch(l -> l.startsWith(videos) && l.contains("range=bytes=")),
          "videos range-read at the v3.0 commit");
    }
  }

  /** Runs {@code ReadmeSnippets snippet} in {@code dir} with a clean rank and Hub environment. */
  private static String run(Path dir, List<String> env, String snippet) throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                ReadmeSnippets.class.getName(),
                snippet)
            .directory(dir.toFile())
            .redirectErrorStream(true);
    pb.environment()
        .keySet()
        .removeIf(
            k ->
                k.startsWith("SLURM_")
                    || k.startsWith("HF_")
                    || k.startsWith("OMPI_")
                    || k.equals("RANK")
                    || k.equals("WORLD_SIZE"));
    for (String variable : env) {
      String[] kv = variable.split("=", 2);
      pb.environment().put(kv[0], kv[1]);
    }
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
    assertEquals(0, p.exitValue(), out);
    return out;
  }
}
