package org.robostream.hub;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.robostream.stream.Batch;
import org.robostream.stream.StreamingDataset;

/**
 * One epoch written down so that two runs compare batch for batch: per batch its samples
 * (episode/frame) and a hash of every camera's frame bytes. The Hub tests compare a Hub run with
 * the local run of the same files under the same settings. Stateless.
 */
final class HubEpochs {
  private HubEpochs() {}

  /** The settings every compared run uses: 2 workers, shuffled, small batches. */
  static StreamingDataset.Builder configure(StreamingDataset.Builder b) {
    return b.batchSize(6).bufferSize(12).maxNumShards(2).workers(2).returnUint8(true).seed(5);
  }

  static List<String> epoch(StreamingDataset ds) {
    List<String> out = new ArrayList<>();
    for (Batch b : ds) {
      try (b) {
        StringBuilder s = new StringBuilder();
        long[] e = b.longs("episode_index");
        long[] f = b.longs("frame_index");
        for (int i = 0; i < b.size(); i++) {
          s.append(e[i]).append('/').append(f[i]).append(' ');
        }
        for (String camera : ds.metadata().info().videoKeys()) {
          ByteBuffer data = b.frames(camera).data();
          s.append(camera).append('#').append(data.hashCode()).append(' ');
        }
        out.add(s.toString());
      }
    }
    return out;
  }

  /** The epoch of the hub dataset. */
  static List<String> epoch(HubDataset hub) {
    try (StreamingDataset ds = configure(StreamingDataset.builder(hub)).build()) {
      return epoch(ds);
    }
  }

  /** The epoch of the local dataset at {@code root}. */
  static List<String> localEpoch(Path root) {
    try (StreamingDataset ds = configure(StreamingDataset.builder(root)).build()) {
      return epoch(ds);
    }
  }
}
