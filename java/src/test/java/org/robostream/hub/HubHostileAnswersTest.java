package org.robostream.hub;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.robostream.hub.FaultyProxy.Exchange;
import org.robostream.hub.FaultyProxy.Fault;
import org.robostream.hub.FaultyProxy.Step;
import org.robostream.testing.Datasets;
import org.robostream.testing.HubServer;

/**
 * Answers a server can send to exhaust or fool the client, through {@link FaultyProxy} in front of
 * the real nginx: an API answer that never ends (stopped at the cap, a typed error, not retried), a
 * 206 for other bytes than asked (never read as the file: retried, and a typed error naming both
 * ranges when it persists), the whole file for a range (read only up to the range's end), a body
 * dripping a byte at a time (ended within one timeout window per attempt), and a slow but steady
 * answer (which must pass, however long it takes).
 */
class HubHostileAnswersTest {
  @TempDir static Path tmp;
  @AutoClose static HubServer hub;
  static Path local;
  static Path video;
  static String videoPath;

  @BeforeAll
  static void startHub() throws Exception {
    local = Datasets.cameraMoovAtEnd();
    hub = HubServer.start(tmp.resolve("nginx"), local);
    try (Stream<Path> s = Files.walk(local.resolve("videos"))) {
      video = s.filter(p -> p.toString().endsWith(".mp4")).sorted().findFirst().orElseThrow();
    }
    videoPath = local.relativize(video).toString();
  }

  /** The test client's configuration, through {@code proxy}, with its own cache. */
  static HubConfig config(FaultyProxy proxy, String cache) {
    return HubServer.config("http://127.0.0.1:" + proxy.port(), tmp.resolve(cache));
  }

  static String videoUrl(HubHttp http) {
    return http.config().endpoint() + "/datasets/" + HubServer.REPO + "/resolve/v3.0/" + videoPath;
  }

  static byte[] localBytes(long start, int length) throws IOException {
    return Arrays.copyOfRange(Files.readAllBytes(video), (int) start, (int) start + length);
  }

  @Test
  void anApiAnswerThatNeverEndsStopsAtTheCapWithATypedErrorAndIsNotRetried() throws Exception {
    try (FaultyProxy proxy =
        FaultyProxy.scripted(
            hub.port,
            20_000,
            List.of(Step.of(r -> r.target().contains("/tree/"), Fault.ENDLESS_JSON)))) {
      HubHttp http = new HubHttp(config(proxy, "cache-endless"));
      long started = System.nanoTime();
      HubException.TooLarge e =
          assertThrows(
              HubException.TooLarge.class,
              () ->
                  HubDataset.prepare(
                      http,
                      HubServer.REPO,
                      null,
                      null,
                      Optional.empty(),
                      Optional.empty(),
                      f -> {}));
      long millis = (System.nanoTime() - started) / 1_000_000;
      assertTrue(e.file().contains("/tree/"), e.file());
      assertTrue(
          e.getMessage()
              .contains("longer than the " + HubHttp.MAX_API_BODY_BYTES + " bytes accepted"),
          e.getMessage());
      assertTrue(
          http.bytesFetched() < HubHttp.MAX_API_BODY_BYTES + (1 << 20),
          "reading stopped at the cap: " + http.bytesFetched() + " bytes");
      assertEquals(0, http.retries(), "an endless answer is not asked for again");
      assertTrue(millis < 10_000, "ended after " + millis + " ms");
    }
  }

  @Test
  void aRangeAnswerForOtherBytesIsNeverReadAsTheFile() throws Exception {
    long start = 40_000;
    int length = 1_000;
    try (FaultyProxy once =
        FaultyProxy.scripted(
            hub.port,
            3000,
            List.of(Step.of(r -> r.isVideo() && r.rangeStart() == start, Fault.SHIFT_RANGE)))) {
      HubHttp http = new HubHttp(config(once, "cache-shift-once"));
      HubHttp.RangeResult got = http.getRange(videoUrl(http), start, length, "an MP4 video");
      assertArrayEquals(localBytes(start, length), got.bytes(), "the asked-for bytes");
      assertEquals(List.of(), once.unusedSteps());
      assertEquals(1, http.retries(), "the shifted answer was asked for again");
    }
    try (FaultyProxy always =
        FaultyProxy.scripted(
            hub.port,
            3000,
            List.of(
                Step.repeated(
                    r -> r.isVideo() && r.rangeStart() == start, Fault.SHIFT_RANGE, 3)))) {
      HubHttp http =
          new HubHttp(
              config(always, "cache-shift")
                  .withRetry(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5))));
      String url = videoUrl(http);
      HubException.RangeMismatch e =
          assertThrows(
              HubException.RangeMismatch.class,
              () -> http.getRange(url, start, length, "an MP4 video"));
      long size = Files.size(video);
      long shifted = start + FaultyProxy.SHIFT;
      assertEquals(url, e.file());
      assertTrue(
          e.getMessage()
              .contains(
                  "asked for bytes="
                      + start
                      + "-"
                      + (start + length - 1)
                      + " but the answer holds Content-Range bytes "
                      + shifted
                      + "-"
                      + (shifted + length - 1)
                      + "/"
                      + size),
          e.getMessage());
      assertEquals(2, http.retries());
    }
  }

  @Test
  void theWholeFileForARangeIsReadOnlyUpToTheRangesEnd() throws Exception {
    long start = 32 << 10;
    int length = 1_000;
    try (FaultyProxy proxy =
        FaultyProxy.scripted(
            hub.port,
            3000,
            List.of(Step.of(r -> r.isVideo() && r.rangeStart() == start, Fault.WHOLE_FILE)))) {
      HubHttp http = new HubHttp(config(proxy, "cache-whole"));
      HubHttp.RangeResult got = http.getRange(videoUrl(http), start, length, "an MP4 video");
      assertArrayEquals(localBytes(start, length), got.bytes());
      assertEquals(Files.size(video), got.totalSize(), "the size from Content-Length");
      assertEquals(0, http.retries());
      assertEquals(List.of(), proxy.unusedSteps());
      assertTrue(
          http.bytesFetched() < start + length + (256 << 10),
          "stopped reading "
              + http.bytesFetched()
              + " bytes into a "
              + Files.size(video)
              + "-byte file");
    }
  }

  @Test
  void aDrippingAnswerEndsWithinOneTimeoutWindowPerAttempt() throws Exception {
    Duration timeout = Duration.ofMillis(400);
    try (FaultyProxy proxy =
        FaultyProxy.scripted(
            hub.port,
            10_000,
            List.of(Step.repeated(r -> r.target().endsWith("/refs"), Fault.DRIP, 2)))) {
      HubHttp http =
          new HubHttp(
              config(proxy, "cache-drip")
                  .withTimeout(timeout)
                  .withRetry(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2))));
      String refs = HubLocation.dataset(HubServer.REPO, null).refsUrl(http.config().endpoint());
      HubException.RetriesExhausted e =
          assertThrows(HubException.RetriesExhausted.class, () -> http.getText(refs));
      assertTrue(e.getMessage().contains("too slow: "), e.getMessage());
      assertTrue(
          e.getMessage()
              .contains("below the minimum of " + HubHttp.MIN_BYTES_PER_SECOND + " bytes/s"),
          e.getMessage());
      // The proxy logs a drip when a write finds the connection closed, a little later.
      List<Exchange> drips = List.of();
      for (long end = System.nanoTime() + 5_000_000_000L;
          drips.size() < 2 && System.nanoTime() < end;
          Thread.sleep(20)) {
        drips = proxy.log().stream().filter(x -> x.fault() == Fault.DRIP).toList();
      }
      assertEquals(2, drips.size(), proxy.log().toString());
      for (Exchange drip : drips) {
        long millis = (drip.endNanos() - drip.startNanos()) / 1_000_000;
        // One window (400 ms) and the proxy's next write (50 ms) noticing the closed connection.
        assertTrue(millis < 2 * timeout.toMillis(), "a drip lasted " + millis + " ms");
      }
    }
  }

  @Test
  void aSlowButSteadyAnswerPassesHoweverLongItTakes() throws Exception {
    Duration timeout = Duration.ofMillis(500);
    int length = 200_000; // 2 s at the throttle's pace: 4 windows of the timeout
    try (FaultyProxy proxy =
        FaultyProxy.scripted(
            hub.port,
            3000,
            List.of(
                Step.of(
                    r -> r.isVideo() && r.rangeStart() == 0 && r.range().endsWith("-199999"),
                    Fault.THROTTLE)))) {
      HubHttp http =
          new HubHttp(
              config(proxy, "cache-steady")
                  .withTimeout(timeout)
                  .withRetry(new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1))));
      long started = System.nanoTime();
      HubHttp.RangeResult got = http.getRange(videoUrl(http), 0, length, "an MP4 video");
      long millis = (System.nanoTime() - started) / 1_000_000;
      assertArrayEquals(localBytes(0, length), got.bytes());
      assertEquals(List.of(), proxy.unusedSteps());
      // Longer than the 3 x timeout any exchange was once allowed, whatever its pace.
      assertTrue(millis > 3 * timeout.toMillis(), "took " + millis + " ms");
    }
  }
}
