package org.robostream.hub;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.robostream.RobostreamException;

/**
 * One read of every data (Parquet) and video file of a Hub dataset's kept episodes over the
 * network, through the dataset's own client, before a run: the server's and a CDN's caches then
 * hold what the run will ask for (the reference's {@code warmed_bucket}). Bytes are read in the
 * client's block size and dropped: nothing goes to the local mirror or the client's shared block
 * cache, so the run that follows still reads every byte over the network. Its time and traffic are
 * measured apart from the run's. Stateless.
 */
public final class WarmPass {
  /** Files read at once: enough to keep a link busy, few enough not to trip a server's limits. */
  static final int PARALLEL_FILES = 4;

  private WarmPass() {}

  /**
   * What the pass did.
   *
   * @param files files read
   * @param seconds wall-clock time of the pass
   * @param traffic the client's traffic during the pass, by origin
   */
  public record Result(int files, double seconds, HubTraffic.Snapshot traffic) {}

  /** Reads every kept data and video file of {@code hub} once; {@code progress} hears each. */
  public static Result run(HubDataset hub, Consumer<String> progress) {
    List<Path> files = files(hub);
    HubTraffic.Snapshot before = hub.http().traffic().snapshot();
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(PARALLEL_FILES, WarmPass::daemon);
    try {
      List<Future<?>> reads = new ArrayList<>();
      for (Path f : files) {
        reads.add(
            pool.submit(
                () -> {
                  readOnce(hub, f);
                  progress.accept(hub.dataRoot().relativize(f).toString());
                }));
      }
      for (Future<?> r : reads) {
        await(r);
      }
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return new Result(files.size(), seconds, hub.http().traffic().snapshot().minus(before));
  }

  /** The kept episodes' data files, then their videos: what a run of {@code hub} reads. */
  public static List<Path> files(HubDataset hub) {
    Set<Path> files = new LinkedHashSet<>();
    hub.metadata().episodes().forEach(e -> files.add(e.dataFile()));
    files.addAll(hub.metadata().videoFiles());
    return List.copyOf(files);
  }

  /** Every byte of one file, block by block, each retried alone by the client. */
  private static void readOnce(HubDataset hub, Path file) {
    String url = hub.urlOf(file);
    String what = file.toString().endsWith(".parquet") ? "a Parquet file" : "an MP4 video";
    int block = hub.http().config().blockBytes();
    long size = hub.http().getRange(url, 0, block, what).totalSize();
    for (long at = block; at < size; at += block) {
      long said = hub.http().getRange(url, at, (int) Math.min(block, size - at), what).totalSize();
      if (said != size) {
        // A file that changes size under the pass (or a server that says what it likes) ends it,
        // as the run's range reads do, instead of steering how far it reads.
        throw new HubException.Changed(url, size + " bytes", said + " bytes");
      }
    }
  }

  private static void await(Future<?> f) {
    try {
      f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new RobostreamException("warm pass failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RobostreamException("interrupted during the warm pass", e);
    }
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r, "robostream-warm-pass");
    t.setDaemon(true);
    return t;
  }
}
