package org.robostream.jmh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.robostream.hub.HubConfig;
import org.robostream.hub.HubHttp;
import org.robostream.hub.HubLocation;

/**
 * Hub block read: one op is one block of {@code blockBytes} fetched with {@link HubHttp#getRange}
 * (the request a range-read source makes per block: HTTP/1.1 range request, status and size checks,
 * the body read into a byte array) from the loopback Hub, nginx on 127.0.0.1 serving the
 * benchmark's camera dataset (scripts/tests/hub-nginx.sh, started in the trial setup and stopped in
 * its teardown). The blocks of the dataset's largest video are read in turn, so a block is never
 * read twice in a row; nothing is cached on the client side (the shared block cache is not used).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
public class HubBlockReadBenchmark {
  /** 64 KiB (the tests' blocks) and 1 MiB; the library's default is 5 MiB (HubConfig). */
  @Param({"65536", "1048576"})
  public int blockBytes;

  private Path work;
  private LoopbackHub hub;
  private HubHttp http;
  private String url;
  private long blocks;
  private long next;

  /** What the ops did, reported beside the time (JMH secondary results). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Counts {
    public long blocks;
    public long bytes;

    @Setup(Level.Iteration)
    public void reset() {
      blocks = 0;
      bytes = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    Path dataset = BenchFixtures.cameraDataset();
    Path video = largestVideo(dataset);
    Path base = BenchFixtures.root().resolve("java/target");
    work = Files.createTempDirectory(base, "jmh-hub");
    hub = LoopbackHub.start(work.resolve("nginx"), dataset);
    Path cache = work.resolve("hf-home");
    http =
        new HubHttp(
            HubConfig.fromEnvironment(
                    Map.of(
                        "HF_ENDPOINT", hub.endpoint() + "/",
                        "HF_HOME", cache.toString(),
                        "HF_LEROBOT_HOME", cache.toString()))
                .withBlockBytes(blockBytes));
    String relative = dataset.relativize(video).toString();
    url = HubLocation.dataset(LoopbackHub.REPO, "v3.0").resolveUrl(hub.endpoint(), relative);
    blocks = Files.size(video) / blockBytes;
    if (blocks < 2) {
      throw new IllegalStateException(video + " holds fewer than two blocks of " + blockBytes);
    }
  }

  private static Path largestVideo(Path dataset) throws Exception {
    try (Stream<Path> files = Files.walk(dataset.resolve("videos"))) {
      return files
          .filter(Files::isRegularFile)
          .max(Comparator.comparingLong(p -> p.toFile().length()))
          .orElseThrow();
    }
  }

  @Benchmark
  public int readBlock(Counts counts) {
    long start = next * blockBytes;
    next = (next + 1) % blocks;
    HubHttp.RangeResult r = http.getRange(url, start, blockBytes, "an MP4 video");
    if (r.bytes().length != blockBytes) {
      throw new IllegalStateException(
          "block at " + start + ": " + r.bytes().length + " bytes, not " + blockBytes);
    }
    counts.blocks++;
    counts.bytes += r.bytes().length;
    return r.bytes().length;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    if (hub != null) {
      hub.close();
    }
    BenchFixtures.deleteTree(work);
  }
}
