package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;
import org.robostream.testing.Processes;

/**
 * The four Hub sources of `bench --source`, each run in a forked JVM against the loopback Hub, with
 * nginx's log saying where the bytes came from: hub reads only repository paths; bucket reads data
 * and videos from the bucket, metadata from the repository; warmed_bucket reads every bucket file
 * once (the warm pass) and then again in the run, both over the network; local_mirror reads the
 * videos from the prewarmed mirror and requests none. Each result JSON says the same by origin.
 */
class BenchSourcesTest {
  static final String REPO_PATHS = "/datasets/" + HubServer.REPO + "/resolve/";
  static final String BUCKET = "hf://buckets/" + HubServer.REPO + "-bucket";
  static final String BUCKET_PATHS = "/buckets/" + HubServer.REPO + "-bucket/resolve/";

  @TempDir static Path tmp;
  @AutoClose static HubServer hub;

  @BeforeAll
  static void startHub() throws Exception {
    hub = HubServer.start(tmp.resolve("nginx"), Datasets.patternV30());
  }

  record Run(JsonNode result, List<String> log, String output) {}

  /** One bench run on episodes 0-1 with the cache {@code cache}; its result and its log lines. */
  static Run bench(Path cache, String source, String... more) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "bench",
                "--repo-id",
                HubServer.REPO,
                "--source",
                source,
                "--episodes",
                "0-1",
                "--num-batches",
                "4",
                "--warmup-batches",
                "1",
                "--batch-size",
                "4",
                "--num-workers",
                "1",
                "--out-dir",
                tmp.resolve("out").toString()));
    args.addAll(List.of(more));
    long mark = hub.mark();
    String out = robostream(cache, args);
    JsonNode r =
        new ObjectMapper()
            .readTree(tmp.resolve("out").resolve(source + "_single_bs4_w1_cpu.json").toFile());
    return new Run(r, hub.requestsSince("hub.log", mark), out);
  }

  static String robostream(Path cache, List<String> args) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(Processes.cli(args.toArray(String[]::new)));
    pb.redirectErrorStream(true);
    pb.environment().put("HF_ENDPOINT", hub.endpoint());
    pb.environment().put("HF_LEROBOT_HOME", cache.toString());
    pb.environment().put("HF_HOME", cache.resolve("hf-home").toString());
    pb.environment().remove("HF_TOKEN");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    return out;
  }

  /** The logged URIs of files (resolve requests), without the query and the log's fields. */
  static List<String> files(List<String> log) {
    return log.stream()
        .map(l -> l.substring(0, l.indexOf(' ')))
        .filter(u -> u.contains("/resolve/"))
        .toList();
  }

  static Map<String, Long> videoReads(List<String> log) {
    return files(log).stream()
        .filter(u -> u.endsWith(".mp4"))
        .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
  }

  @Test
  void hubReadsTheRepositoryOverTheNetworkEvenWithAMirrorOnDisk() throws Exception {
    Path cache = tmp.resolve("repo-cache");
    robostream(cache, List.of("prewarm", "--repo-id", HubServer.REPO, "--episodes", "0-1"));

    Run mirror = bench(cache, "local_mirror");
    assertTrue(videoReads(mirror.log()).isEmpty(), "local_mirror requests no video: " + mirror.log);
    JsonNode mirrorRun = mirror.result().path("bytes_from").path("run");
    assertTrue(mirrorRun.path("local_disk").path("bytes").asLong() > 0, mirror.result().toString());
    assertFalse(mirrorRun.has("repository"), mirror.result().toString());

    Run h = bench(cache, "hub");
    assertFalse(videoReads(h.log()).isEmpty(), "hub reads its videos remotely: " + h.log());
    assertTrue(files(h.log()).stream().allMatch(u -> u.startsWith(REPO_PATHS)), h.log().toString());
    JsonNode run = h.result().path("bytes_from").path("run");
    assertTrue(run.path("repository").path("bytes").asLong() > 0, h.result().toString());
    assertFalse(run.has("local_disk"), "the mirror is not read: " + h.result());
    assertFalse(run.has("bucket"), h.result().toString());
    assertFalse(h.result().has("warm_pass"), h.result().toString());
    assertEquals("hub", h.result().path("source").asText());
  }

  @Test
  void bucketAndWarmedBucketReadTheBucketOverTheNetworkAndOnlyTheWarmedOneTwice() throws Exception {
    Path cache = tmp.resolve("bucket-cache");
    Run b = bench(cache, "bucket", "--data-files-root", BUCKET);
    List<String> bucketFiles = files(b.log());
    for (String u : bucketFiles) {
      boolean meta = u.startsWith(REPO_PATHS) && u.contains("/meta/");
      assertTrue(meta || u.startsWith(BUCKET_PATHS), "bucket run: " + u);
    }
    assertTrue(bucketFiles.stream().anyMatch(u -> u.startsWith(REPO_PATHS)), "metadata: repo");
    Map<String, Long> once = videoReads(b.log());
    assertFalse(once.isEmpty(), b.log().toString());
    assertTrue(once.keySet().stream().allMatch(u -> u.startsWith(BUCKET_PATHS)), once.toString());
    JsonNode run = b.result().path("bytes_from").path("run");
    assertTrue(run.path("bucket").path("bytes").asLong() > 0, b.result().toString());
    assertFalse(run.has("repository") || run.has("local_disk"), b.result().toString());

    Run w = bench(cache, "warmed_bucket", "--data-files-root", BUCKET);
    Map<String, Long> twice = videoReads(w.log());
    assertEquals(once.keySet(), twice.keySet(), "the same videos");
    // The warm pass reads each video once more, over the network; the run then reads it again.
    twice.forEach((u, n) -> assertTrue(n >= once.get(u) + 1, u + ": " + n + " vs " + once.get(u)));
    assertTrue(
        files(w.log()).stream()
            .filter(u -> u.contains("/data/"))
            .allMatch(u -> u.startsWith(BUCKET_PATHS)),
        "the warm pass reads the data files from the bucket: " + w.log());
    JsonNode warm = w.result().path("warm_pass");
    assertTrue(warm.path("seconds").asDouble() > 0, w.result().toString());
    assertTrue(warm.path("files").asInt() >= once.size() + 1, w.result().toString());
    JsonNode from = w.result().path("bytes_from");
    long passBytes = from.path("warm_pass").path("bucket").path("bytes").asLong();
    assertEquals(warm.path("bytes").asLong(), passBytes, w.result().toString());
    long runBytes = from.path("run").path("bucket").path("bytes").asLong();
    assertTrue(runBytes > 0, "the run reads the bucket again: " + w.result());
    assertFalse(from.path("run").has("local_disk"), w.result().toString());
    // The pass is counted apart: bytes_fetched is opening plus the run, never the pass.
    long open = 0; // every origin of opening: the listing's next pages too
    for (JsonNode origin : from.path("open")) {
      open += origin.path("bytes").asLong();
    }
    assertEquals(open + runBytes, w.result().path("bytes_fetched").asLong(), w.result().toString());
    assertTrue(w.output().contains("warm pass: "), w.output());
  }
}
