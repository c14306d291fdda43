package org.robostream.stream;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.robostream.FileException;
import org.robostream.codec.FrameTables;
import org.robostream.codec.VideoScan;
import org.robostream.dataset.DatasetException;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.fetch.FramePlacement;
import org.robostream.source.UnreadableFileException;
import org.robostream.source.VideoSources;
import org.robostream.video.UnsupportedVideoException;
import org.robostream.video.VideoException;
import org.robostream.video.VideoNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The videos' part of opening a dataset: every kept video file on this machine is scanned (its
 * header and packet index, no decoding: about a millisecond a file, {@link VideoScan}) and every
 * kept episode's span in it placed and checked ({@link FramePlacement}), so that a video that does
 * not hold the frames its metadata puts there is refused by {@code build()}, not half way through
 * an epoch. The tables are kept for the workers' decoders ({@link FrameTables}). Files read
 * remotely (a Hub dataset's videos not in the local mirror) are checked when their first episode is
 * read instead: checking them here would fetch every file's index before the first batch; this is
 * said once, with their count. Stateless.
 */
final class VideoChecks {
  private static final Logger LOG = LoggerFactory.getLogger(StreamingDataset.class);

  private VideoChecks() {}

  /**
   * Scans the kept video files on this machine ({@link VideoSources#onThisMachine}) on a few
   * threads, then checks them in order: camera by camera, file by file, episode by episode, so the
   * error reported is always the first.
   *
   * @throws DatasetException.BadMetadata for a span the file does not hold
   * @throws DatasetException.CorruptFile for a file that is not a readable video (also {@code
   *     MissingFile}, {@code Unsupported}), naming the file, its first kept episode and camera
   */
  static void atOpen(
      LeRobotMetadata metadata, VideoSources videos, FramePlacement placement, FrameTables tables) {
    Map<Path, List<EpisodeInfo>> byFile = new LinkedHashMap<>();
    Map<Path, String> cameraOf = new LinkedHashMap<>();
    java.util.Set<Path> remote = new java.util.HashSet<>();
    for (String camera : metadata.videoCameras()) {
      for (EpisodeInfo e : metadata.episodes()) {
        Path file = e.video(camera).file();
        if (remote.contains(file)) {
          continue;
        }
        if (!byFile.containsKey(file) && !videos.onThisMachine(file)) {
          remote.add(file);
          continue;
        }
        cameraOf.putIfAbsent(file, camera);
        byFile.computeIfAbsent(file, f -> new ArrayList<>()).add(e);
      }
    }
    if (!remote.isEmpty()) {
      LOG.info(
          "{} video files are read remotely: each is checked against the episodes table when its"
              + " first episode is read, not now (that would fetch every file's index first)",
          remote.size());
    }
    List<Path> files = List.copyOf(byFile.keySet());
    List<Future<VideoScan>> scans = new ArrayList<>(files.size());
    int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), 8));
    ExecutorService pool = Executors.newFixedThreadPool(threads, VideoChecks::daemon);
    try {
      for (Path file : files) {
        scans.add(pool.submit(() -> VideoScan.read(videos.open(file))));
      }
      for (int i = 0; i < files.size(); i++) {
        String camera = cameraOf.get(files.get(i));
        List<EpisodeInfo> episodes = byFile.get(files.get(i));
        VideoScan scan;
        try {
          scan = result(scans.get(i));
        } catch (VideoException | UnreadableFileException e) {
          throw unreadable(e, episodes.get(0), camera);
        }
        tables.remember(scan.table());
        for (EpisodeInfo e : episodes) {
          placement.checkSpan(e, e.video(camera), scan.info(), scan.table());
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * A video that cannot be read, as the dataset's error: missing, unsupported (a codec or size
   * robostream does not decode) or corrupt, naming the file, the first episode and the camera.
   */
  private static DatasetException unreadable(FileException e, EpisodeInfo first, String camera) {
    String problem = "episode " + first.index() + ", camera " + camera + ": " + e.problem();
    if (e instanceof VideoNotFoundException || e instanceof UnreadableFileException) {
      return new DatasetException.MissingFile(e.file(), problem);
    }
    if (e instanceof UnsupportedVideoException) {
      return new DatasetException.Unsupported(e.file(), problem);
    }
    return new DatasetException.CorruptFile(e.file(), problem, e);
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r, "robostream-video-check");
    t.setDaemon(true);
    return t;
  }

  private static VideoScan result(Future<VideoScan> scan) {
    try {
      return scan.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking the videos", e);
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
