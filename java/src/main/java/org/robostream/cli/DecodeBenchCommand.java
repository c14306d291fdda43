package org.robostream.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.robostream.bench.FfmpegCliBaseline;
import org.robostream.video.FrameLayout;
import org.robostream.video.HostFrameBuffer;
import org.robostream.video.VideoDecoder;
import org.robostream.video.VideoDecoderOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code robostream decode-bench FILE...}: decode + RGB conversion rate of robostream next to the
 * ffmpeg CLI's ({@code -threads N -i F -pix_fmt rgb24 -f null -}) on the same files and thread
 * count, measured side by side in this run; optionally the cost of shuffled single-frame access.
 */
@Command(name = "decode-bench", mixinStandardHelpOptions = true,
    description = "Compare robostream's sequential decode+convert rate with the ffmpeg CLI's.")
final class DecodeBenchCommand implements Callable<Integer> {
  private static final int CHUNK = 32;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "video files")
  List<Path> files;

  @Option(names = "--threads", defaultValue = "1", description = "decoder threads, both sides")
  int threads;

  @Option(names = "--random", defaultValue = "0", paramLabel = "K",
      description = "also time K shuffled single-frame decodes per file")
  int random;

  @Option(names = "--repeat", defaultValue = "3", description = "runs per measurement (best kept)")
  int repeat;

  @Option(names = "--layout", defaultValue = "hwc", description = "hwc or chw")
  String layout;

  @Option(names = "--seed", defaultValue = "42", description = "seed of the shuffled timestamps")
  long seed;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
  Path json;

  @Override
  public Integer call() throws Exception {
    if (threads < 1 || repeat < 1 || random < 0) {
      throw new IllegalArgumentException("--threads and --repeat must be >= 1, --random >= 0");
    }
    FrameLayout frameLayout = FrameLayout.parse(layout);
    // Sequential reading may pipeline frames across threads; random access stays low-latency.
    VideoDecoderOptions options = VideoDecoderOptions.defaults().withThreads(threads)
        .withLowLatency(threads <= 1);
    VideoDecoderOptions randomOptions = VideoDecoderOptions.defaults().withThreads(threads);
    List<Map<String, Object>> results = new ArrayList<>();
    System.out.printf("%-34s %6s %7s %12s %12s %7s%s%n", "file", "codec", "frames",
        "ffmpeg fps", "robostream", "ratio", random > 0 ? "   random/seq cost" : "");
    for (Path file : files) {
      Map<String, Object> r = benchFile(file, options, randomOptions, frameLayout);
      results.add(r);
      System.out.printf("%-34s %6s %7d %12.1f %12.1f %7.2f%s%n",
          abbreviate(file.getFileName().toString(), 34), r.get("codec"), r.get("frames"),
          (double) r.get("ffmpeg_fps"), (double) r.get("robostream_fps"),
          (double) r.get("ratio"),
          random > 0 ? String.format("   %.2fx", (double) r.get("random_cost_ratio")) : "");
    }
    if (json != null) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("threads", threads);
      doc.put("repeat", repeat);
      doc.put("layout", layout);
      doc.put("results", results);
      Json.MAPPER.writeValue(json.toFile(), doc);
    }
    return 0;
  }

  private Map<String, Object> benchFile(Path file, VideoDecoderOptions options,
      VideoDecoderOptions randomOptions, FrameLayout lay)
      throws Exception {
    double[] pts;
    String codec;
    String backend;
    try (VideoDecoder decoder = VideoDecoder.open(file, options)) {
      pts = decoder.framePtsSeconds();
      codec = decoder.info().codec();
      backend = decoder.backendDescription();
    }
    double ffmpegSeconds = Double.MAX_VALUE;
    double oursSeconds = Double.MAX_VALUE;
    for (int i = 0; i < repeat; i++) {
      // Alternate the two so that machine noise hits both alike.
      ffmpegSeconds = Math.min(ffmpegSeconds, FfmpegCliBaseline.decodeSeconds(file, threads));
      oursSeconds = Math.min(oursSeconds, sequentialSeconds(file, options, pts, lay));
    }
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("file", file.toString());
    r.put("codec", codec);
    r.put("backend", backend);
    r.put("frames", pts.length);
    r.put("ffmpeg_fps", pts.length / ffmpegSeconds);
    r.put("robostream_fps", pts.length / oursSeconds);
    r.put("ratio", ffmpegSeconds / oursSeconds);
    if (random > 0) {
      double randomSeconds = Double.MAX_VALUE;
      long decoded = 0;
      for (int i = 0; i < repeat; i++) {
        long[] decodedOut = new long[1];
        randomSeconds = Math.min(randomSeconds,
            randomSeconds(file, randomOptions, pts, lay, decodedOut));
        decoded = decodedOut[0];
      }
      double perFrameRandom = randomSeconds / random;
      double perFrameSequential = oursSeconds / pts.length;
      r.put("random_frames", random);
      r.put("random_fps", random / randomSeconds);
      r.put("random_cost_ratio", perFrameRandom / perFrameSequential);
      r.put("random_decode_amplification", decoded / (double) random);
    }
    return r;
  }

  private static double sequentialSeconds(Path file, VideoDecoderOptions options, double[] pts,
      FrameLayout layout) {
    long start = System.nanoTime();
    try (VideoDecoder decoder = VideoDecoder.open(file, options)) {
      HostFrameBuffer buffer = HostFrameBuffer.forVideo(decoder.info(), CHUNK, layout);
      for (int i = 0; i < pts.length; i += CHUNK) {
        int n = Math.min(CHUNK, pts.length - i);
        double[] chunk = java.util.Arrays.copyOfRange(pts, i, i + n);
        decoder.decode(chunk, buffer);
      }
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private double randomSeconds(Path file, VideoDecoderOptions options, double[] pts,
      FrameLayout layout, long[] decodedOut) {
    Random rng = new Random(seed);
    double[] queries = new double[random];
    for (int i = 0; i < random; i++) {
      queries[i] = pts[rng.nextInt(pts.length)];
    }
    long start = System.nanoTime();
    try (VideoDecoder decoder = VideoDecoder.open(file, options)) {
      HostFrameBuffer buffer = HostFrameBuffer.forVideo(decoder.info(), 1, layout);
      double[] one = new double[1];
      for (double q : queries) {
        one[0] = q;
        decoder.decode(one, buffer); // one call per sample: what a shuffled loader does
      }
      decodedOut[0] = decoder.stats().framesDecoded();
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static String abbreviate(String s, int n) {
    return s.length() <= n ? s : "..." + s.substring(s.length() - n + 3);
  }
}
