package org.robostream.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.robostream.codec.Decoder;

/**
 * The ffmpeg CLI's decode+convert rate over a dataset's video files ({@link
 * org.robostream.dataset.LeRobotMetadata#videoFiles()}): files in parallel processes, one decoder
 * thread each, like the loader's workers. Stateless.
 */
public final class DatasetVideos {
  private DatasetVideos() {}

  /**
   * Frames per second of the ffmpeg CLI over {@code files}, {@code parallel} at a time, each
   * process on one thread. With fewer files than {@code parallel} (a v3.0 dataset may keep a camera
   * in one file) fewer processes ran than the loader has workers, so the rate is scaled by {@link
   * #perfectScaling}: a ratio against it cannot credit the loader for using more cores than ffmpeg
   * was given.
   */
  public static double ffmpegFramesPerSecond(List<Path> files, int parallel) throws Exception {
    return ffmpegRun(files, parallel).framesPerSecond();
  }

  /** The ffmpeg CLI's run behind {@link #ffmpegFramesPerSecond}: frames, seconds and scaling. */
  static SequentialDecodeBaseline.Result ffmpegRun(List<Path> files, int parallel)
      throws Exception {
    long frames = 0;
    for (Path f : files) {
      try (Decoder d = Decoder.open(f)) {
        frames += d.info().frameCount();
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallel));
    long start = System.nanoTime();
    try {
      List<Future<Double>> runs = new ArrayList<>();
      for (Path f : files) {
        runs.add(pool.submit(() -> FfmpegCliBaseline.decodeSeconds(f, 1)));
      }
      for (Future<Double> r : runs) {
        r.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return new SequentialDecodeBaseline.Result(
        frames, (System.nanoTime() - start) / 1e9, perfectScaling(parallel, files.size()));
  }

  /**
   * How many times faster {@code files} files decoded one per thread would go with {@code parallel}
   * threads than with the {@code min(parallel, files)} that can run at once, if decoding scaled
   * perfectly: the factor that credits a one-thread-per-file baseline with every core the loader
   * used, so a ratio against it cannot favour the loader.
   */
  static double perfectScaling(int parallel, int files) {
    return Math.max(1, parallel) / (double) Math.max(1, Math.min(parallel, files));
  }
}
