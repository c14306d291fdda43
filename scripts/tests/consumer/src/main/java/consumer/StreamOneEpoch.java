package consumer;

import java.nio.file.Path;
import java.util.Map;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;

/**
 * The README's streaming snippet as a user's own program: one epoch of the dataset named on the
 * command line; prints "samples N frames-bytes M" for the check script to compare.
 */
public final class StreamOneEpoch {
  public static void main(String[] args) {
    long samples = 0;
    long frameBytes = 0;
    try (StreamingDataset ds =
        StreamingDataset.builder(Path.of(args[0]))
            .batchSize(8)
            .workers(2)
            .returnUint8(true)
            .deltaTimestamps(Map.of("action", new double[] {0, 0.05, 0.1}))
            .build()) {
      String camera = ds.metadata().info().videoKeys().get(0);
      for (Batch b : ds) {
        try (b) {
          Batch.Frames frames = b.frames(camera);
          double[] action = b.doubles("action");
          boolean[] pad = b.booleans("action_is_pad");
          if (action.length == 0 || pad.length != 3 * b.size()) {
            throw new IllegalStateException("unexpected windows in batch " + b.index());
          }
          samples += b.size();
          frameBytes += frames.data().remaining();
        }
      }
    }
    System.out.println("samples " + samples + " frames-bytes " + frameBytes);
  }
}
