package org.robostream.stream;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.robostream.framecache.FrameCacheOptions;
import org.robostream.framecache.FrameCacheStats;
import org.robostream.video.FrameLayout;

/**
 * One rank of {@link FrameCacheMultiProcessTest}, in its own JVM (rank and world from SLURM_PROCID
 * / SLURM_NTASKS): opens the dataset with a frame cache in the shared folder and streams the epoch
 * each line {@code epoch N} on stdin names, checking every delivered frame against the pattern
 * painted into it; after each epoch prints one {@link Report} line (its counters so far) to stdout.
 * Ends at end of input.
 */
public final class FrameCacheRankProcess {
  private FrameCacheRankProcess() {}

  /**
   * What a rank reports after an epoch: its counters since it started, and the episodes it
   * delivered in that epoch (padding included).
   */
  record Report(
      int epoch,
      long decoded,
      long fromCache,
      long delivered,
      long checksumFailures,
      String disabled,
      TreeSet<Integer> episodes) {
    String line() {
      return "report "
          + epoch
          + " "
          + decoded
          + " "
          + fromCache
          + " "
          + delivered
          + " "
          + checksumFailures
          + " "
          + episodes.toString().replace(" ", "")
          + " "
          + disabled;
    }

    static Report parse(String line) {
      String[] p = line.split(" ", 8);
      if (p.length != 8 || !p[0].equals("report")) {
        throw new IllegalArgumentException("not a report: " + line);
      }
      TreeSet<Integer> episodes = new TreeSet<>();
      String list = p[6].substring(1, p[6].length() - 1);
      for (String e : list.isEmpty() ? new String[0] : list.split(",")) {
        episodes.add(Integer.parseInt(e));
      }
      return new Report(
          Integer.parseInt(p[1]),
          Long.parseLong(p[2]),
          Long.parseLong(p[3]),
          Long.parseLong(p[4]),
          Long.parseLong(p[5]),
          p[7].equals("null") ? null : p[7],
          episodes);
    }
  }

  /** args: dataset root, shared cache folder, workers, shuffle buffer size. */
  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    Path cache = Path.of(args[1]);
    try (StreamingDataset ds =
        StreamingDataset.builder(root)
            .workers(Integer.parseInt(args[2]))
            .bufferSize(Integer.parseInt(args[3]))
            .batchSize(8)
            .seed(11)
            .returnUint8(true)
            .layout(FrameLayout.HWC)
            .frameCache(FrameCacheOptions.directory(cache, 256L << 20))
            .build()) {
      List<String> cameras = ds.metadata().info().videoKeys();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String command = in.readLine(); command != null; command = in.readLine()) {
        int epoch = Integer.parseInt(command.substring("epoch ".length()));
        ds.setEpoch(epoch);
        TreeSet<Integer> episodes = new TreeSet<>();
        for (Batch b : ds) {
          try (b) {
            for (long sample : PatternSamples.checked(b, cameras)) {
              episodes.add(Samples.episode(sample));
            }
          }
        }
        StreamCounters.Snapshot s = ds.stats();
        FrameCacheStats c = ds.frameCacheStats();
        System.out.println(
            new Report(
                    epoch,
                    s.framesDecoded(),
                    s.framesFromCache(),
                    s.framesDelivered(),
                    c.checksumFailures(),
                    c.disabled(),
                    episodes)
                .line());
        System.out.flush();
      }
    }
  }
}
