package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.codec.Decoder;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.dataset.VideoSpan;
import org.robostream.hub.FaultyProxy.Exchange;
import org.robostream.hub.FaultyProxy.Fault;
import org.robostream.hub.FaultyProxy.Request;
import org.robostream.hub.FaultyProxy.Step;
import org.robostream.stream.StreamingDataset;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;
import org.robostream.testing.Mp4Boxes;

/**
 * Remote MP4s as muxers write them by default — the moov box after the media data — read in many 4
 * KiB blocks: the Hub epoch equals the local one, also when a script breaks later blocks with every
 * kind of transient failure, a range answer shifted from the one asked for included (each one must
 * happen, be retried, and leave the samples exactly once and the frames equal); and the first
 * blocks of a run are fetched for all cameras at once.
 */
class HubMoovAtEndTest {
  static final int BLOCK = 16 << 10;
  @TempDir static Path tmp;
  @AutoClose static HubServer hub;
  static Path local;
  static List<String> localEpoch;

  @BeforeAll
  static void startHub() throws Exception {
    local = Datasets.cameraMoovAtEnd();
    hub = HubServer.start(tmp.resolve("nginx"), local);
    localEpoch = HubEpochs.localEpoch(local);
  }

  static HubConfig smallBlocks(String endpoint, String cache) {
    return HubServer.config(endpoint, tmp.resolve(cache)).withBlockBytes(BLOCK);
  }

  @Test
  void moovAtTheEndInManyBlocksStreamsEqualToLocal() throws Exception {
    List<Path> videos;
    try (var walk = Files.walk(local.resolve("videos"))) {
      videos = walk.filter(p -> p.toString().endsWith(".mp4")).toList();
    }
    for (Path v : videos) {
      List<String> boxes = Mp4Boxes.topLevel(v);
      assertTrue(
          boxes.indexOf("moov") > boxes.indexOf("mdat") && boxes.contains("mdat"),
          v + ": moov after mdat, got " + boxes);
      assertTrue(Files.size(v) > 8 * BLOCK, v + " spans many blocks: " + Files.size(v));
    }
    HubHttp http = new HubHttp(smallBlocks(hub.endpoint(), "cache-plain"));
    HubDataset ds =
        HubDataset.prepare(
            http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {});
    assertEquals(localEpoch, HubEpochs.epoch(ds));
    long videoBytes = 0;
    for (Path v : videos) {
      videoBytes += Files.size(v);
    }
    assertTrue(
        http.requests() > videoBytes / BLOCK,
        "read in blocks: " + http.requests() + " requests for " + videoBytes + " bytes of video");
  }

  /** Later blocks of the videos (not the first of a file), plus the data Parquet and the API. */
  static final Predicate<Request> LATER_VIDEO_BLOCK = r -> r.isVideo() && r.rangeStart() >= BLOCK;

  @Test
  void everyScriptedFaultIsRetriedAndTheEpochStaysExactlyOnceAndEqual() throws Exception {
    List<Step> script =
        List.of(
            Step.of(LATER_VIDEO_BLOCK, Fault.RESET),
            Step.of(LATER_VIDEO_BLOCK, Fault.ERROR_500),
            Step.of(LATER_VIDEO_BLOCK, Fault.ERROR_503),
            Step.tooMany(LATER_VIDEO_BLOCK, 1),
            Step.tooMany(LATER_VIDEO_BLOCK, 30),
            Step.of(LATER_VIDEO_BLOCK, Fault.STALL_AFTER_HEADERS),
            Step.of(LATER_VIDEO_BLOCK, Fault.STALL),
            Step.of(LATER_VIDEO_BLOCK, Fault.TRUNCATE),
            Step.of(LATER_VIDEO_BLOCK, Fault.SHIFT_RANGE),
            Step.of(
                r -> r.target().endsWith(".parquet") && r.target().contains("/data/"),
                Fault.TRUNCATE),
            Step.of(r -> r.target().contains("/api/"), Fault.ERROR_503));
    Duration cap = Duration.ofMillis(1200);
    try (FaultyProxy proxy = FaultyProxy.scripted(hub.port, 3000, script)) {
      HubHttp http =
          new HubHttp(
              smallBlocks("http://127.0.0.1:" + proxy.port(), "cache-faulty")
                  .withRetry(new RetryPolicy(6, Duration.ofMillis(5), cap))
                  .withTimeout(Duration.ofMillis(400)));
      HubDataset ds =
          HubDataset.prepare(
              http, HubServer.REPO, null, null, Optional.empty(), Optional.empty(), f -> {});
      assertEquals(localEpoch, HubEpochs.epoch(ds), "samples exactly once, frames equal");
      assertEquals(List.of(), proxy.unusedSteps(), "every scripted fault happened");
      List<Exchange> log = proxy.log();
      for (Exchange broken : log) {
        if (broken.fault() != Fault.NONE) {
          assertTrue(next(log, broken).fault() == Fault.NONE, "retried with success: " + broken);
        }
      }
      // The JDK client itself retries a GET once when the connection closes before any answer
      // (the reset); every other fault is ours to retry.
      assertTrue(http.retries() >= script.size() - 1, "retries " + http.retries());
      // Retry-After: 1 is honoured; Retry-After: 30 is capped at the policy's 1.2 s.
      long honoured = gapMillis(log, 1);
      long capped = gapMillis(log, 30);
      assertTrue(honoured >= 950, "Retry-After: 1 waited " + honoured + " ms");
      assertTrue(
          capped >= cap.toMillis() - 50 && capped < 4000,
          "Retry-After: 30 waited " + capped + " ms, cap " + cap.toMillis());
    }
  }

  @Test
  void retriesExhaustedOnA5xxNameTheUrlAndTheStatus() throws Exception {
    String path = "/resolve/v3.0/meta/info.json";
    try (FaultyProxy proxy =
        FaultyProxy.scripted(
            hub.port,
            3000,
            List.of(Step.repeated(r -> r.target().endsWith(path), Fault.ERROR_503, 3)))) {
      HubHttp http =
          new HubHttp(
              smallBlocks("http://127.0.0.1:" + proxy.port(), "cache-5xx")
                  .withRetry(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5))));
      String url = http.config().endpoint() + "/datasets/" + HubServer.REPO + path;
      HubException.RetriesExhausted e =
          assertThrows(
              HubException.RetriesExhausted.class, () -> http.getRange(url, 0, 100, "a JSON file"));
      assertEquals(503, e.status());
      assertTrue(e.getMessage().contains(url), e.getMessage());
      assertTrue(e.getMessage().contains("HTTP 503"), e.getMessage());
      assertTrue(e.getMessage().contains("3 attempts"), e.getMessage());
    }
  }

  @Test
  void theFirstBlocksOfEveryCameraAreRequestedBeforeTheFirstCameraDecodes() throws Exception {
    // Episode 3 after episode 0 (one worker, in order): its first frames lie in blocks nobody
    // fetched yet (opening read the files' ends, episode 0 their first 450 KB at most), in the
    // files episode 0 opened for both cameras.
    LeRobotMetadata m = LeRobotMetadata.open(local, Optional.empty());
    List<Predicate<Request>> firstBlock = new ArrayList<>();
    for (String camera : m.info().videoKeys()) {
      VideoSpan span = m.episode(3).video(camera);
      assertEquals(m.episode(0).video(camera).file(), span.file(), "episodes 0 and 3 share files");
      long block;
      try (Decoder d = Decoder.open(span.file())) {
        block = d.frameTable().seekPosition(span.frameOffset()) / BLOCK;
      }
      String path = local.relativize(span.file()).toString();
      firstBlock.add(r -> r.target().endsWith(path) && r.rangeStart() == block * BLOCK);
    }
    // The first camera's block is held back until the second camera's block is asked for: only
    // a fetch that does not wait for the first camera's decode gets it released in time.
    // Held at most 400 ms, less than the client's 700 ms timeout: a release after a timeout and
    // a retry would prove nothing.
    try (FaultyProxy proxy =
        FaultyProxy.scripted(
            hub.port, 400, List.of(Step.hold(firstBlock.get(0), firstBlock.get(1))))) {
      HubHttp http = new HubHttp(smallBlocks("http://127.0.0.1:" + proxy.port(), "cache-cams"));
      HubDataset ds =
          HubDataset.prepare(
              http,
              HubServer.REPO,
              null,
              null,
              Optional.of(Set.of(0, 3)),
              Optional.empty(),
              f -> {});
      List<String> remote;
      try (StreamingDataset s = inOrder(StreamingDataset.builder(ds)).build()) {
        remote = HubEpochs.epoch(s);
      }
      assertEquals(List.of(), proxy.unusedSteps(), "episode 3's first block was requested");
      Exchange held =
          proxy.log().stream().filter(x -> x.fault() == Fault.HOLD).findFirst().orElseThrow();
      assertTrue(
          held.released(),
          "the second camera's block was requested while the first"
              + " camera's was still on its way");
      try (StreamingDataset s =
          inOrder(StreamingDataset.builder(local).episodes(List.of(0, 3))).build()) {
        assertEquals(HubEpochs.epoch(s), remote);
      }
    }
  }

  static StreamingDataset.Builder inOrder(StreamingDataset.Builder b) {
    return b.batchSize(4).workers(1).maxNumShards(1).shuffle(false).returnUint8(true);
  }

  /** The next exchange of the same request after {@code e}. */
  static Exchange next(List<Exchange> log, Exchange e) {
    return log.stream()
        .filter(x -> x.request().equals(e.request()) && x.startNanos() > e.startNanos())
        .findFirst()
        .orElseThrow(() -> new AssertionError("never retried: " + e));
  }

  /** Milliseconds between the 429 with this Retry-After and the retry of its request. */
  static long gapMillis(List<Exchange> log, int retryAfter) {
    Exchange tooMany =
        log.stream()
            .filter(x -> x.fault() == Fault.TOO_MANY && x.retryAfter() == retryAfter)
            .findFirst()
            .orElseThrow();
    return (next(log, tooMany).startNanos() - tooMany.endNanos()) / 1_000_000;
  }
}
