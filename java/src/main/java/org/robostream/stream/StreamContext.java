package org.robostream.stream;

import java.util.List;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.video.Device;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;

/**
 * What every worker of a stream shares: metadata, windows, output format and limits. Immutable
 * (the metadata is immutable and thread-safe).
 *
 * @param storeBytes bytes of packed decoded pictures a worker may hold (its memory budget share)
 * @param prefetch batches a worker may have built ahead of the consumer
 * @param decoderCacheSize decoders per worker
 */
record StreamContext(LeRobotMetadata metadata, Windows windows, List<String> cameras,
    boolean uint8, FrameLayout layout, Device device, VideoDecoderOptions decoderOptions,
    long storeBytes, int prefetch, int decoderCacheSize, int height, int width) {

  /** Window positions of {@code key} (1 when not windowed). */
  int positions(String key) {
    int[] o = windows.offsets(key);
    return o == null ? 1 : o.length;
  }

  /**
   * The tensor shape of one sample's frames of {@code camera}: [C,H,W] or [H,W,C], with a
   * leading T for a window. Host and device batches both use it.
   */
  int[] tensorShape(String camera) {
    int[] frame = layout == FrameLayout.CHW ? new int[] {3, height, width}
        : new int[] {height, width, 3};
    return windows.offsets(camera) == null ? frame
        : new int[] {positions(camera), frame[0], frame[1], frame[2]};
  }

  /** The dimension names of {@link #tensorShape}. */
  List<String> tensorDimNames(String camera) {
    List<String> frame = layout == FrameLayout.CHW ? List.of("C", "H", "W")
        : List.of("H", "W", "C");
    return windows.offsets(camera) == null ? frame
        : List.of("T", frame.get(0), frame.get(1), frame.get(2));
  }

  long frameBytes() {
    return (long) height * width * 3;
  }

  /** Bytes of one sample's frames as RGB: every camera and window position, uint8. */
  long sampleFrameBytes() {
    long sum = 0;
    for (String c : cameras) {
      sum += positions(c) * frameBytes();
    }
    return sum;
  }
}
