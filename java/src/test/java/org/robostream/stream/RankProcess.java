package org.robostream.stream;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One rank of {@link MultiProcessShardingTest}, run in its own JVM: streams an epoch with rank and
 * world from the environment (SLURM_PROCID / SLURM_NTASKS, as under srun) and writes one line per
 * batch: "pad" or "real", then its samples as episode/frame; then {@link #end}, so that output cut
 * short shows.
 */
public final class RankProcess {
  private RankProcess() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    int workers = Integer.parseInt(args[1]);
    Path out = Path.of(args[2]);
    try (StreamingDataset ds =
            StreamingDataset.builder(root)
                .batchSize(5)
                .bufferSize(10)
                .maxNumShards(2)
                .workers(workers)
                .returnUint8(true)
                .build();
        PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
      w.println(
          "rank "
              + ds.rankWorld().rank()
              + " of "
              + ds.rankWorld().world()
              + " from "
              + ds.rankWorld().source());
      int batches = 0;
      for (Batch b : ds) {
        try (b) {
          long[] e = b.longs("episode_index");
          long[] f = b.longs("frame_index");
          StringBuilder line = new StringBuilder(b.booleans("is_padding")[0] ? "pad" : "real");
          for (int i = 0; i < b.size(); i++) {
            line.append(' ').append(e[i]).append('/').append(f[i]);
          }
          w.println(line);
        }
        batches++;
      }
      w.println(end(batches));
    }
  }

  /** The last line, written once the epoch has been streamed to its end. */
  static String end(int batches) {
    return "end of epoch after " + batches + " batches";
  }
}
