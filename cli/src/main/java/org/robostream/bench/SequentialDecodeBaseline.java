package org.robostream.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.robostream.codec.Decoder;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;

/**
 * The pure sequential decode + convert rate of a set of videos: every frame in order, 32 per call
 * into a reusable buffer, one single-threaded decoder per file, files spread over {@code threads}
 * threads (the loader's parallelism). With fewer files than threads the rate is credited with
 * {@link DatasetVideos#perfectScaling} (a one-file dataset decodes on one thread here, while the
 * loader's workers share its file). The yardstick the streaming loader's overhead is measured
 * against. Stateless.
 */
public final class SequentialDecodeBaseline {
  private static final int CHUNK = 32;

  private SequentialDecodeBaseline() {}

  /**
   * Frames decoded, seconds taken and the scaling credited for threads without a file of their own
   * (1 when every thread had one).
   */
  public record Result(long frames, double seconds, double scaling) {
    public double framesPerSecond() {
      return frames / seconds * scaling;
    }
  }

  public static Result run(List<Path> files, int threads, FrameLayout layout) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long start = System.nanoTime();
    try {
      List<Future<Long>> parts = new ArrayList<>();
      for (Path f : files) {
        parts.add(pool.submit(() -> decodeAll(f, layout)));
      }
      long frames = 0;
      for (Future<Long> p : parts) {
        frames += p.get();
      }
      return new Result(
          frames,
          (System.nanoTime() - start) / 1e9,
          DatasetVideos.perfectScaling(threads, files.size()));
    } finally {
      pool.shutdownNow();
    }
  }

  private static long decodeAll(Path file, FrameLayout layout) {
    try (Decoder d = Decoder.open(file, VideoDecoderOptions.defaults())) {
      double[] pts = d.framePtsSeconds();
      HostFrameBuffer buffer = HostFrameBuffer.forVideo(d.info(), CHUNK, layout);
      for (int i = 0; i < pts.length; i += CHUNK) {
        d.decode(java.util.Arrays.copyOfRange(pts, i, Math.min(pts.length, i + CHUNK)), buffer);
      }
      return pts.length;
    }
  }
}
