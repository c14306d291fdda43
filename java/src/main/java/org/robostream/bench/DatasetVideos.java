package org.robostream.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.video.VideoDecoder;

/**
 * The distinct video files of a dataset view, and the ffmpeg CLI's decode+convert rate over them
 * (files in parallel processes, one decoder thread each, like the loader's workers). Stateless.
 */
public final class DatasetVideos {
  private DatasetVideos() {}

  public static List<Path> files(LeRobotMetadata m) {
    List<Path> out = new ArrayList<>();
    for (String camera : m.info().videoKeys()) {
      TreeSet<Path> files = new TreeSet<>();
      for (EpisodeInfo e : m.episodes()) {
        files.add(e.video(camera).file());
      }
      out.addAll(files);
    }
    return out;
  }

  /**
   * Frames per second of the ffmpeg CLI over {@code files}, {@code parallel} at a time, each
   * process on one thread. With fewer files than {@code parallel} (a v3.0 dataset may keep a
   * camera in one file) fewer processes ran than the loader has workers, so the rate is scaled
   * by {@code parallel / files}: the perfect scaling ffmpeg could reach at most, so that a ratio
   * against it cannot credit the loader for using more cores than ffmpeg was given.
   */
  public static double ffmpegFramesPerSecond(List<Path> files, int parallel) throws Exception {
    long frames = 0;
    for (Path f : files) {
      try (VideoDecoder d = VideoDecoder.open(f)) {
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
    double measured = frames / ((System.nanoTime() - start) / 1e9);
    return measured * Math.max(1, parallel) / Math.max(1, Math.min(parallel, files.size()));
  }
}
