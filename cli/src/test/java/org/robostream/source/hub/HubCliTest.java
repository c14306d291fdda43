package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;
import org.robostream.testing.Processes;

/**
 * The CLI against the loopback Hub, in forked JVMs (HF_ENDPOINT and HF_LEROBOT_HOME are read from
 * the environment): `prewarm` fills the cache, `bench --repo-id` streams from the Hub and reports
 * bytes fetched, `--source local_mirror` reads the prewarmed videos (and refuses to run without
 * them).
 */
class HubCliTest {
  @TempDir static Path tmp;
  @AutoClose static HubServer hub;

  @BeforeAll
  static void startHub() throws Exception {
    hub = HubServer.start(tmp.resolve("nginx"), Datasets.patternV30());
  }

  static String robostream(Path cache, String... args) throws IOException, InterruptedException {
    Result r = run(cache, args);
    assertEquals(0, r.exit(), r.output());
    return r.output();
  }

  record Result(int exit, String output) {}

  static Result run(Path cache, String... args) throws IOException, InterruptedException {
    List<String> command = Processes.cli(args);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("HF_ENDPOINT", hub.endpoint());
    pb.environment().put("HF_LEROBOT_HOME", cache.toString());
    pb.environment().put("HF_HOME", cache.resolve("hf-home").toString());
    pb.environment().remove("HF_TOKEN");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS));
    return new Result(p.exitValue(), out);
  }

  @Test
  void diagnoseChecksTheFirstRemoteVideoAndExplainsAPageInsteadOfAFile() throws Exception {
    String ok = robostream(tmp.resolve("diag"), "diagnose", "--repo-id", HubServer.REPO);
    assertTrue(ok.contains("ok    revision v3.0"), ok);
    assertTrue(
        ok.contains("/resolve/" + hub.commitOf("v3.0") + "/videos/"),
        "read at the" + " commit the v3.0 tag points to: " + ok);
    assertTrue(ok.contains("ok    an ftyp box"), ok);
    assertTrue(ok.contains("ok    decoded frame 0"), ok);
    assertTrue(ok.contains("no token (anonymous)"), ok);
    Result page =
        run(
            tmp.resolve("diag-html"),
            "diagnose",
            "--repo-id",
            HubServer.REPO,
            "--data-files-root",
            "hf://datasets/" + HubServer.REPO + "-html@v3.0");
    assertEquals(1, page.exit(), page.output());
    assertTrue(page.output().contains("HTML page instead of a Parquet file"), page.output());
  }

  @Test
  void withoutACacheSettingTheCliCachesUnderScratchAsTheLaunchersDo() throws Exception {
    Path scratch = tmp.resolve("scratch");
    List<String> command = Processes.cli("prewarm", "--repo-id", HubServer.REPO, "--episodes", "0");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("HF_ENDPOINT", hub.endpoint());
    pb.environment().put("SCRATCH", scratch.toString());
    pb.environment().remove("HF_LEROBOT_HOME");
    pb.environment().remove("HF_HOME");
    pb.environment().remove("HF_TOKEN");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    Path home = scratch.resolve("hf_home/lerobot");
    assertTrue(
        out.contains("robostream Hub cache: HF_LEROBOT_HOME=" + home + " (under $SCRATCH)"), out);
    assertTrue(count(home, ".mp4") >= 1, "prewarmed under $SCRATCH: " + out);
  }

  @Test
  void prewarmFillsTheCacheAndBenchStreamsFromTheHub() throws Exception {
    Path cache = tmp.resolve("cache");
    robostream(cache, "prewarm", "--repo-id", HubServer.REPO, "--episodes", "0,2");
    long mp4 = count(cache, ".mp4");
    assertTrue(mp4 >= 1, "videos downloaded: " + mp4);
    Path out = tmp.resolve("results");
    robostream(
        tmp.resolve("cold"),
        "bench",
        "--repo-id",
        HubServer.REPO,
        "--num-batches",
        "4",
        "--warmup-batches",
        "1",
        "--batch-size",
        "4",
        "--num-workers",
        "2",
        "--out-dir",
        out.toString());
    JsonNode r = new ObjectMapper().readTree(out.resolve("hub_single_bs4_w2_cpu.json").toFile());
    assertEquals("hub", r.path("source").asText());
    assertEquals("v3.0", r.path("revision").asText());
    assertEquals(hub.commitOf("v3.0"), r.path("commit").asText());
    assertTrue(r.path("frames_measured").asLong() > 0, r.toString());
    assertTrue(r.path("bytes_fetched").asLong() > 0);
    assertTrue(r.path("bytes_fetched_per_frame").asLong() > 0);
    assertEquals(0, count(tmp.resolve("cold"), ".mp4"), "hub source: videos are range-read");
    // local_mirror reads the prewarmed mirror: without it the run stops at once with the
    // command that fills it; after `prewarm` it reads the videos without fetching them.
    Path warm = tmp.resolve("warm");
    Result cold =
        run(
            warm,
            "bench",
            "--repo-id",
            HubServer.REPO,
            "--source",
            "local_mirror",
            "--num-batches",
            "4",
            "--out-dir",
            out.toString());
    assertEquals(2, cold.exit(), cold.output());
    assertTrue(cold.output().contains("videos are not in the prewarmed mirror"), cold.output());
    assertTrue(
        cold.output()
            .contains("robostream prewarm --repo-id " + HubServer.REPO + " --revision v3.0"),
        cold.output());
    assertEquals(0, count(warm, ".mp4"), "bench never downloads videos itself");
    // A selection is repeated in the prewarm command, which then fetches the same files.
    Result selected =
        run(
            tmp.resolve("warm-selected"),
            "bench",
            "--repo-id",
            HubServer.REPO,
            "--source",
            "local_mirror",
            "--cameras",
            "observation.images.top",
            "--episodes",
            "0-1",
            "--num-batches",
            "4",
            "--out-dir",
            out.toString());
    assertEquals(2, selected.exit(), selected.output());
    assertTrue(
        selected
            .output()
            .contains("--revision v3.0 --cameras observation.images.top --episodes 0-1"),
        selected.output());
    robostream(warm, "prewarm", "--repo-id", HubServer.REPO, "--revision", "v3.0");
    long videoBytes = bytes(warm, ".mp4");
    robostream(
        warm,
        "bench",
        "--repo-id",
        HubServer.REPO,
        "--source",
        "local_mirror",
        "--num-batches",
        "4",
        "--warmup-batches",
        "1",
        "--batch-size",
        "4",
        "--num-workers",
        "2",
        "--out-dir",
        out.toString(),
        "--baseline",
        "ffmpeg");
    JsonNode w =
        new ObjectMapper().readTree(out.resolve("local_mirror_single_bs4_w2_cpu.json").toFile());
    assertEquals("local_mirror", w.path("source").asText());
    assertTrue(w.path("frames_measured").asLong() > 0, w.toString());
    assertTrue(
        w.path("bytes_fetched").asLong() < videoBytes / 10,
        "videos read from the mirror: "
            + w.path("bytes_fetched")
            + " bytes fetched, "
            + videoBytes
            + " bytes of video");
    // (The ratio itself may be 0: a 2-batch window of this small dataset is served from memory.)
    assertTrue(w.path("baseline_frames_per_s").asDouble() > 0, "the ffmpeg CLI reads the mirror");
  }

  @Test
  void prewarmRefusesAListingThatClimbsOutOfTheCacheAndWritesNothing() throws Exception {
    Path home = tmp.resolve("traversal");
    Path victim = HubUnsafePathTest.victim(home);
    Result r = run(home, "prewarm", "--repo-id", HubServer.REPO + "-traversal");
    assertEquals(1, r.exit(), r.output());
    assertTrue(
        r.output()
            .contains(
                "refused the path \""
                    + HubUnsafePathTest.TRAVERSAL
                    + "\" from the server "
                    + hub.endpoint()),
        r.output());
    assertEquals("alice's recording", Files.readString(victim));
    assertEquals(List.of(), HubUnsafePathTest.filesHolding(home, "the server bytes"));
  }

  static long bytes(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix))
          .mapToLong(p -> p.toFile().length())
          .sum();
    }
  }

  @Test
  void anHfUrlIsADatasetRootForBenchAndTrain() throws Exception {
    String root = "hf://datasets/" + HubServer.REPO + "@v3.0";
    Path out = tmp.resolve("results-hf-root");
    robostream(
        tmp.resolve("hf-root"),
        "bench",
        "--root",
        root,
        "--num-batches",
        "3",
        "--warmup-batches",
        "1",
        "--batch-size",
        "4",
        "--num-workers",
        "1",
        "--out-dir",
        out.toString());
    JsonNode r = new ObjectMapper().readTree(out.resolve("hub_single_bs4_w1_cpu.json").toFile());
    assertEquals(HubServer.REPO, r.path("repo_id").asText());
    assertEquals("v3.0", r.path("revision").asText());
    assertTrue(r.path("bytes_fetched").asLong() > 0, "streamed from the Hub: " + r);
    String trained =
        robostream(
            tmp.resolve("hf-root"),
            "train",
            "--root",
            root,
            "--steps",
            "3",
            "--batch-size",
            "4",
            "--num-workers",
            "1",
            "--buffer-size",
            "8",
            "--output-dir",
            tmp.resolve("train-out").toString());
    assertTrue(trained.contains("done: 3 steps"), trained);
    assertEquals(0, count(tmp.resolve("hf-root"), ".mp4"), "videos range-read, not downloaded");
  }

  static long count(Path dir, String suffix) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
    }
  }
}
