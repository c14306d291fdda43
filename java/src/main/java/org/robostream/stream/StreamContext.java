package org.robostream.stream;

import java.util.List;
import java.util.Map;
import org.robostream.arrow.DType;
import org.robostream.arrow.FrameColumn;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.video.Device;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;

/**
 * What every worker of a stream shares: metadata, windows, output format and limits. Immutable (the
 * metadata is immutable and thread-safe).
 *
 * @param storeBytes bytes of packed decoded pictures a worker may hold (its memory budget share)
 * @param prefetch batches a worker may have built ahead of the consumer
 * @param decoderCacheSize decoders per worker
 * @param frameSizes each camera's frame size in the batches: its files', or resized
 * @param fileSizes each camera's frame size in its files, as info.json declares it
 */
record StreamContext(
    LeRobotMetadata metadata,
    Windows windows,
    List<String> cameras,
    boolean uint8,
    FrameLayout layout,
    Device device,
    VideoDecoderOptions decoderOptions,
    long storeBytes,
    int prefetch,
    int decoderCacheSize,
    Map<String, FrameSize> frameSizes,
    Map<String, FrameSize> fileSizes) {

  /** A camera's frame size. */
  record FrameSize(int height, int width) {
    long rgbBytes() {
      return 3L * height * width;
    }
  }

  StreamContext {
    frameSizes = Map.copyOf(frameSizes);
    fileSizes = Map.copyOf(fileSizes);
  }

  /** Window positions of {@code key} (1 when not windowed). */
  int positions(String key) {
    int[] o = windows.offsets(key);
    return o == null ? 1 : o.length;
  }

  /** {@code camera}'s frame size in the batches. */
  FrameSize frameSize(String camera) {
    return sizeIn(frameSizes, camera);
  }

  /** {@code camera}'s frame size in its files (the decoded pictures'). */
  FrameSize fileSize(String camera) {
    return sizeIn(fileSizes, camera);
  }

  private FrameSize sizeIn(Map<String, FrameSize> sizes, String camera) {
    FrameSize size = sizes.get(camera);
    if (size == null) {
      throw new IllegalArgumentException("no camera " + camera + "; cameras: " + cameras);
    }
    return size;
  }

  /**
   * The frame column of {@code camera} in a batch: its own size, the output layout and type, a
   * window of T frames per sample when windowed. Host and device batches both use it.
   */
  FrameColumn frameColumn(String camera) {
    FrameSize size = frameSize(camera);
    return new FrameColumn(
        camera,
        positions(camera),
        size.height(),
        size.width(),
        layout,
        uint8 ? DType.UINT8 : DType.FLOAT32);
  }

  /**
   * Bytes of one sample's frames as RGB in the batches: every camera at its own (resized) size and
   * window position, uint8.
   */
  long sampleFrameBytes() {
    return sampleRgbBytes(frameSizes);
  }

  /**
   * Bytes a worker holds for one sample until its batch is built, as far as known before decoding:
   * RGB at the files' sizes (the CPU path holds the pictures packed, YUV 4:2:0 at half that, and
   * scales them when converting; the device path, which does not resize, holds RGB).
   */
  long heldSampleBytes() {
    return sampleRgbBytes(fileSizes);
  }

  private long sampleRgbBytes(Map<String, FrameSize> sizes) {
    long sum = 0;
    for (String c : cameras) {
      sum += positions(c) * sizeIn(sizes, c).rgbBytes();
    }
    return sum;
  }
}
