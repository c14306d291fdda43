package org.robostream.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.robostream.bench.FfmpegCliBaseline;
import org.robostream.codec.Decoder;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;
import org.robostream.video.VideoStreamInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code robostream decode-bench FILE...}: decode + RGB conversion rate of robostream next to the
 * ffmpeg CLI's ({@code -threads N -i F -pix_fmt rgb24 -f null -}) on the same files and thread
 * count, measured side by side in this run; optionally the cost of shuffled single-frame access.
 *
 * <p>robostream runs in this warm JVM and its time includes opening and indexing the file. The
 * ffmpeg process's time also includes starting the process and probing, which robostream does not
 * pay per file: so the ffmpeg rate and the ratio subtract a 1-frame run of the same command
 * (start-up, open, probe, first frame) and count the other frames; that leaves robostream's open in
 * and ffmpeg's out, a conservative comparison. The whole-process figures are reported too.
 */
@Command(
    name = "decode-bench",
    mixinStandardHelpOptions = true,
    description = "Compare robostream's sequential decode+convert rate with the ffmpeg CLI's.")
final class DecodeBenchCommand implements Callable<Integer> {
  private static final int CHUNK = 32;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "video files")
  List<Path> files;

  @Option(names = "--threads", defaultValue = "1", description = "decoder threads, both sides")
  int threads;

  @Option(
      names = "--random",
      defaultValue = "0",
      paramLabel = "K",
      description =
          "also time K distinct shuffled frames per file: one per call, and all in"
              + " one planned call")
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
    VideoDecoderOptions options =
        VideoDecoderOptions.defaults().withThreads(threads).withLowLatency(threads <= 1);
    VideoDecoderOptions randomOptions = VideoDecoderOptions.defaults().withThreads(threads);
    List<Map<String, Object>> results = new ArrayList<>();
    System.out.printf(
        "%-30s %6s %6s %11s %11s %6s %17s%s%n",
        "file",
        "codec",
        "frames",
        "ffmpeg fps",
        "robostream",
        "ratio",
        "(ffmpeg+startup)",
        random > 0 ? "  shuffled cost/seq: 1 per call | all in 1 call" : "");
    for (Path file : files) {
      Map<String, Object> r = benchFile(file, options, randomOptions, frameLayout);
      results.add(r);
      System.out.printf(
          "%-30s %6s %6d %11.1f %11.1f %6.2f %8.1f fps %4.2f%s%n",
          abbreviate(file.getFileName().toString(), 30),
          r.get("codec"),
          r.get("frames"),
          (double) r.get("ffmpeg_fps"),
          (double) r.get("robostream_fps"),
          (double) r.get("ratio"),
          (double) r.get("ffmpeg_process_fps"),
          (double) r.get("ratio_whole_process"),
          random > 0
              ? String.format(
                  "  %8.2fx (ampl. %.2f) | %.2fx (ampl. %.2f)",
                  (double) r.get("random_single_cost_ratio"),
                  (double) r.get("random_single_decode_amplification"),
                  (double) r.get("random_batch_cost_ratio"),
                  (double) r.get("random_batch_decode_amplification"))
              : "");
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

  private Map<String, Object> benchFile(
      Path file, VideoDecoderOptions options, VideoDecoderOptions randomOptions, FrameLayout lay)
      throws Exception {
    double[] pts;
    String codec;
    String backend;
    VideoStreamInfo info;
    try (Decoder decoder = Decoder.open(file, options)) {
      pts = decoder.framePtsSeconds();
      info = decoder.info();
      codec = info.codec();
      backend = decoder.backendDescription();
    }
    // Destinations are allocated (and so zeroed) before the clock starts, as a loader's pooled
    // batch memory is: a fresh 200-frame buffer costs 184 MB of page faults, which is not decoding.
    HostFrameBuffer chunkBuffer = HostFrameBuffer.forVideo(info, CHUNK, lay);
    double ffmpegSeconds = Double.MAX_VALUE;
    double ffmpegFixedSeconds = Double.MAX_VALUE;
    double oursSeconds = Double.MAX_VALUE;
    for (int i = 0; i < repeat; i++) {
      // Alternate the runs so that machine noise hits all alike.
      ffmpegSeconds = Math.min(ffmpegSeconds, FfmpegCliBaseline.decodeSeconds(file, threads));
      ffmpegFixedSeconds =
          Math.min(ffmpegFixedSeconds, FfmpegCliBaseline.fixedSeconds(file, threads));
      oursSeconds = Math.min(oursSeconds, sequentialSeconds(file, options, pts, chunkBuffer));
    }
    if (pts.length < 2 || ffmpegSeconds <= ffmpegFixedSeconds) {
      throw new IllegalArgumentException(
          file
              + ": too short to time ffmpeg without its start-up"
              + " ("
              + pts.length
              + " frames)");
    }
    double ffmpegFps = (pts.length - 1) / (ffmpegSeconds - ffmpegFixedSeconds);
    double oursFps = pts.length / oursSeconds;
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("file", file.toString());
    r.put("codec", codec);
    r.put("backend", backend);
    r.put("frames", pts.length);
    r.put("ffmpeg_fps", ffmpegFps);
    r.put("robostream_fps", oursFps);
    r.put("ratio", oursFps / ffmpegFps);
    r.put("ffmpeg_startup_seconds", ffmpegFixedSeconds);
    r.put("ffmpeg_process_fps", pts.length / ffmpegSeconds);
    r.put("ratio_whole_process", ffmpegSeconds / oursSeconds);
    if (random > 0) {
      // K distinct frames in shuffled order, timed two ways: one frame per call (what a
      // shuffling loader costs when each sample is alone in its file) and all K in one call
      // (the planner sorts, de-duplicates and decodes each GOP once).
      double[] queries = shuffledDistinctFrames(pts);
      double singleSeconds = Double.MAX_VALUE;
      double batchSeconds = Double.MAX_VALUE;
      long[] singleDecoded = new long[1];
      long[] batchDecoded = new long[1];
      HostFrameBuffer single = HostFrameBuffer.forVideo(info, 1, lay);
      HostFrameBuffer all = HostFrameBuffer.forVideo(info, queries.length, lay);
      for (int i = 0; i < repeat; i++) {
        singleSeconds =
            Math.min(
                singleSeconds,
                shuffledSeconds(file, randomOptions, queries, single, singleDecoded));
        batchSeconds =
            Math.min(
                batchSeconds, shuffledSeconds(file, randomOptions, queries, all, batchDecoded));
      }
      double perFrameSequential = oursSeconds / pts.length;
      r.put("random_frames", queries.length);
      r.put("random_single_fps", queries.length / singleSeconds);
      r.put("random_single_cost_ratio", singleSeconds / queries.length / perFrameSequential);
      r.put("random_single_decode_amplification", singleDecoded[0] / (double) queries.length);
      r.put("random_batch_fps", queries.length / batchSeconds);
      r.put("random_batch_cost_ratio", batchSeconds / queries.length / perFrameSequential);
      r.put("random_batch_decode_amplification", batchDecoded[0] / (double) queries.length);
    }
    return r;
  }

  private static double sequentialSeconds(
      Path file, VideoDecoderOptions options, double[] pts, HostFrameBuffer buffer) {
    long start = System.nanoTime();
    try (Decoder decoder = Decoder.open(file, options)) {
      for (int i = 0; i < pts.length; i += CHUNK) {
        int n = Math.min(CHUNK, pts.length - i);
        double[] chunk = java.util.Arrays.copyOfRange(pts, i, i + n);
        decoder.decode(chunk, buffer);
      }
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private double[] shuffledDistinctFrames(double[] pts) {
    java.util.List<Double> all = new java.util.ArrayList<>();
    for (double p : pts) {
      all.add(p);
    }
    java.util.Collections.shuffle(all, new Random(seed));
    int n = Math.min(random, all.size());
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = all.get(i);
    }
    return out;
  }

  /**
   * Decodes {@code queries} in order, as many per decode call as {@code buffer} holds; seconds
   * including opening the file.
   */
  private static double shuffledSeconds(
      Path file,
      VideoDecoderOptions options,
      double[] queries,
      HostFrameBuffer buffer,
      long[] decodedOut) {
    int perCall = buffer.capacity();
    long start = System.nanoTime();
    try (Decoder decoder = Decoder.open(file, options)) {
      for (int i = 0; i < queries.length; i += perCall) {
        int n = Math.min(perCall, queries.length - i);
        decoder.decode(java.util.Arrays.copyOfRange(queries, i, i + n), buffer);
      }
      decodedOut[0] = decoder.stats().framesDecoded();
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static String abbreviate(String s, int n) {
    return s.length() <= n ? s : "..." + s.substring(s.length() - n + 3);
  }
}
