package org.robostream.source.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.source.hub.FaultyProxy.Exchange;
import org.robostream.source.hub.FaultyProxy.Fault;
import org.robostream.source.hub.FaultyProxy.Request;
import org.robostream.source.hub.FaultyProxy.Step;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;
import org.robostream.testing.Mp4Boxes;

/**
 * Remote MP4s as muxers write them by default — the moov box after the media data — read in
 * many 4 KiB blocks: the Hub epoch equals the local one, also when a script breaks later blocks
 * with every kind of transient failure (each one must happen, be retried, and leave the samples
 * exactly once and the frames equal).
 */
class HubMoovAtEndTest {
  static final int BLOCK = 4096;
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
    assertTrue(videos.size() >= 4, "two files per camera: " + videos);
    for (Path v : videos) {
      List<String> boxes = Mp4Boxes.topLevel(v);
      assertTrue(boxes.indexOf("moov") > boxes.indexOf("mdat") && boxes.contains("mdat"),
          v + ": moov after mdat, got " + boxes);
      assertTrue(Files.size(v) > 8 * BLOCK, v + " spans many blocks: " + Files.size(v));
    }
    HubHttp http = new HubHttp(smallBlocks(hub.endpoint(), "cache-plain"));
    HubDataset ds = HubDataset.prepare(http, HubServer.REPO, null, null, Optional.empty(),
        f -> { });
    assertEquals(localEpoch, HubEpochs.epoch(ds));
    long videoBytes = 0;
    for (Path v : videos) {
      videoBytes += Files.size(v);
    }
    assertTrue(http.requests() > videoBytes / BLOCK, "read in blocks: " + http.requests()
        + " requests for " + videoBytes + " bytes of video");
  }

  /** Later blocks of the videos (not the first of a file), plus the data Parquet and the API. */
  static final Predicate<Request> LATER_VIDEO_BLOCK = r -> r.isVideo() && r.rangeStart() >= BLOCK;

  @Test
  void everyScriptedFaultIsRetriedAndTheEpochStaysExactlyOnceAndEqual() throws Exception {
    List<Step> script = List.of(
        Step.of(LATER_VIDEO_BLOCK, Fault.RESET),
        Step.of(LATER_VIDEO_BLOCK, Fault.ERROR_500),
        Step.of(LATER_VIDEO_BLOCK, Fault.ERROR_503),
        Step.tooMany(LATER_VIDEO_BLOCK, 1),
        Step.tooMany(LATER_VIDEO_BLOCK, 30),
        Step.of(LATER_VIDEO_BLOCK, Fault.STALL_AFTER_HEADERS),
        Step.of(LATER_VIDEO_BLOCK, Fault.STALL),
        Step.of(LATER_VIDEO_BLOCK, Fault.TRUNCATE),
        Step.of(r -> r.target().endsWith(".parquet") && r.target().contains("/data/"),
            Fault.TRUNCATE),
        Step.of(r -> r.target().contains("/api/"), Fault.ERROR_503));
    Duration cap = Duration.ofMillis(1200);
    try (FaultyProxy proxy = FaultyProxy.scripted(hub.port, 3000, script)) {
      HubHttp http = new HubHttp(smallBlocks("http://127.0.0.1:" + proxy.port(), "cache-faulty")
          .withRetry(new RetryPolicy(6, Duration.ofMillis(5), cap))
          .withTimeout(Duration.ofMillis(400)));
      HubDataset ds = HubDataset.prepare(http, HubServer.REPO, null, null, Optional.empty(),
          f -> { });
      assertEquals(localEpoch, HubEpochs.epoch(ds), "samples exactly once, frames equal");
      assertEquals(List.of(), proxy.unusedSteps(), "every scripted fault happened");
      List<Exchange> log = proxy.log();
      for (Exchange broken : log) {
        if (broken.fault() != Fault.NONE) {
          assertTrue(next(log, broken).fault() == Fault.NONE, "retried with success: "
              + broken);
        }
      }
      // The JDK client itself retries a GET once when the connection closes before any answer
      // (the reset); every other fault is ours to retry.
      assertTrue(http.retries() >= script.size() - 1, "retries " + http.retries());
      // Retry-After: 1 is honoured; Retry-After: 30 is capped at the policy's 1.2 s.
      long honoured = gapMillis(log, 1);
      long capped = gapMillis(log, 30);
      assertTrue(honoured >= 950, "Retry-After: 1 waited " + honoured + " ms");
      assertTrue(capped >= cap.toMillis() - 50 && capped < 4000, "Retry-After: 30 waited "
          + capped + " ms, cap " + cap.toMillis());
    }
  }

  @Test
  void retriesExhaustedOnA5xxNameTheUrlAndTheStatus() throws Exception {
    String path = "/resolve/v3.0/meta/info.json";
    try (FaultyProxy proxy = FaultyProxy.scripted(hub.port, 3000, List.of(
        Step.repeated(r -> r.target().endsWith(path), Fault.ERROR_503, 3)))) {
      HubHttp http = new HubHttp(smallBlocks("http://127.0.0.1:" + proxy.port(), "cache-5xx")
          .withRetry(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5))));
      String url = http.config().endpoint() + "/datasets/" + HubServer.REPO + path;
      HubException.RetriesExhausted e = assertThrows(HubException.RetriesExhausted.class,
          () -> http.getRange(url, 0, 100, "a JSON file"));
      assertEquals(503, e.status());
      assertTrue(e.getMessage().contains(url), e.getMessage());
      assertTrue(e.getMessage().contains("HTTP 503"), e.getMessage());
      assertTrue(e.getMessage().contains("3 attempts"), e.getMessage());
    }
  }

  /** The next exchange of the same request after {@code e}. */
  static Exchange next(List<Exchange> log, Exchange e) {
    return log.stream().filter(x -> x.request().equals(e.request())
            && x.startNanos() > e.startNanos()).findFirst()
        .orElseThrow(() -> new AssertionError("never retried: " + e));
  }

  /** Milliseconds between the 429 with this Retry-After and the retry of its request. */
  static long gapMillis(List<Exchange> log, int retryAfter) {
    Exchange tooMany = log.stream().filter(x -> x.fault() == Fault.TOO_MANY
        && x.retryAfter() == retryAfter).findFirst().orElseThrow();
    return (next(log, tooMany).startNanos() - tooMany.endNanos()) / 1_000_000;
  }
}
