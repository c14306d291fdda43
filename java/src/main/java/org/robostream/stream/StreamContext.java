package org.robostream.stream;

import java.util.List;
import java.util.Map;
import org.robostream.arrow.FrameColumn;
import org.robostream.codec.PixelFormats;
import org.robostream.dataset.Feature;
import org.robostream.dataset.LeRobotMetadata;
import org.robostream.frames.FrameSize;
import org.robostream.video.Device;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;
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
 * @param transforms the image transforms every sample's frames get before batching
 * @param sizing the shuffle buffer and decode runs sized to {@code storeBytes}: the most frames a
 *     stream decodes ahead in one call (the frame path's own limits apply too) and the bytes a held
 *     sample is expected to take until the first ones are measured
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
    Map<String, FrameSize> fileSizes,
    SampleTransforms transforms,
    ShuffleBufferSizing sizing) {

  StreamContext {
    frameSizes = Map.copyOf(frameSizes);
    fileSizes = Map.copyOf(fileSizes);
  }

  /**
   * This context with what is decided once it has been probed (the sizes of a sample's frames): the
   * memory a worker holds, its decoder cache, the transforms and the shuffle buffer's sizing.
   */
  StreamContext sized(
      long heldBytes, int decoders, SampleTransforms sampleTransforms, ShuffleBufferSizing sized) {
    return new StreamContext(
        metadata,
        windows,
        cameras,
        uint8,
        layout,
        device,
        decoderOptions,
        heldBytes,
        prefetch,
        decoders,
        frameSizes,
        fileSizes,
        sampleTransforms,
        sized);
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
   * What a batch holds of {@code camera}: RGB uint8 or float32 as asked; a depth map
   * (video.is_depth_map) one channel of its sample values, uint16 when uint8 is asked (8 bits would
   * lose a 12- or 16-bit depth: the values are never squashed) or float32.
   */
  FrameSamples samples(String camera) {
    if (metadata.info().features().get(camera).isDepthMap()) {
      return uint8 ? FrameSamples.DEPTH_UINT16 : FrameSamples.DEPTH_FLOAT32;
    }
    return uint8 ? FrameSamples.RGB_UINT8 : FrameSamples.RGB_FLOAT32;
  }

  /**
   * The frame column of {@code camera} in a batch: its own size, the output layout, its samples, a
   * window of T frames per sample when windowed. Host and device batches both use it.
   */
  FrameColumn frameColumn(String camera) {
    FrameSize size = frameSize(camera);
    return FrameColumn.of(
        camera, positions(camera), size.height(), size.width(), layout, samples(camera));
  }

  /**
   * Bytes a worker holds for one sample until its batch is built, as far as known before decoding,
   * at the larger of the files' and the batch's sizes: per pixel 3 values for RGB, 1 for depth,
   * each one byte, or two where the samples are deeper than 8 bits (a depth map, a declared 10-bit
   * {@code video.pix_fmt}). The CPU frame device holds the pictures packed at the files' size (YUV
   * 4:2:0 at half of that) and scales them when converting; the CUDA one holds them converted and
   * scaled to the batch's size, which is larger than the files' when resize(...) scales up. Workers
   * replace it with what they measure.
   */
  long heldSampleBytes() {
    long sum = 0;
    for (String c : cameras) {
      FrameSize file = fileSize(c);
      FrameSize batch = frameSize(c);
      long pixels =
          Math.max((long) file.height() * file.width(), (long) batch.height() * batch.width());
      sum += positions(c) * samples(c).channels() * bytesPerHeldValue(c) * pixels;
    }
    return sum;
  }

  private int bytesPerHeldValue(String camera) {
    Feature feature = metadata.info().features().get(camera);
    Object pixelFormat = feature.videoInfo().get("video.pix_fmt");
    boolean deep =
        feature.isDepthMap() || (pixelFormat instanceof String name && PixelFormats.isDeep(name));
    return deep ? 2 : 1;
  }

  /**
   * Bytes of one sample's frames in a batch: every camera at its own (resized) size and window
   * position, as delivered (uint8, uint16 or float32).
   */
  long sampleBatchBytes() {
    long sum = 0;
    for (String c : cameras) {
      sum += positions(c) * frameColumn(c).frameBytes();
    }
    return sum;
  }
}
