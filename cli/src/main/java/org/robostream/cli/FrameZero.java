package org.robostream.cli;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.FrameBatch;
import org.robostream.decode.VideoDecoder;
import org.robostream.source.VideoSources;
import org.robostream.video.FrameLayout;
import org.robostream.video.VideoDecoderOptions;
import org.robostream.video.VideoStreamInfo;

/**
 * diagnose's decode step: frame 0 of a video decoded into a one-row frame batch of a memory pool
 * (host for the CPU, CUDA for NVDEC), the way every batch is filled, and copied back to the host,
 * so the CPU and the GPU result can be compared byte for byte. Stateless.
 */
final class FrameZero {
  private FrameZero() {}

  /**
   * @param info the stream as the decoder opened it
   * @param backend the decoder's backend description
   * @param rgb frame 0 as RGB24 HWC; null when a GPU was asked for but this file decodes on the CPU
   *     (then {@code cpuFallbackReason} says why)
   * @param millis open-to-host time of the decode
   * @param cpuFallbackReason why NVDEC does not decode this file, or null
   */
  record Decoded(
      VideoStreamInfo info, String backend, byte[] rgb, double millis, String cpuFallbackReason) {}

  static Decoded decode(
      VideoSources videos, Path video, VideoDecoderOptions options, BatchMemoryPool pool) {
    try (VideoDecoder decoder = VideoDecoder.open(videos.open(video), options);
        BatchMemoryPool host = BatchMemoryPool.host()) {
      VideoStreamInfo info = decoder.info();
      if (options.cudaDevice() >= 0 && !decoder.decodesOnGpu()) {
        return new Decoded(
            info, decoder.backendDescription(), null, 0, decoder.cpuFallbackReason());
      }
      long start = System.nanoTime();
      try (FrameBatch batch = decoder.framesAt(pool, FrameLayout.HWC, 0);
          FrameBatch onHost = batch.toHost(host)) { // waits for the batch's sync event
        double millis = (System.nanoTime() - start) / 1e6;
        ByteBuffer frame = onHost.tensor().data();
        byte[] rgb = new byte[frame.remaining()];
        frame.get(rgb);
        return new Decoded(info, decoder.backendDescription(), rgb, millis, null);
      }
    }
  }

  /** The largest and the mean absolute difference of two RGB frames, in 8-bit levels. */
  static double[] difference(byte[] a, byte[] b) {
    int max = 0;
    long sum = 0;
    for (int i = 0; i < a.length; i++) {
      int d = Math.abs((a[i] & 0xFF) - (b[i] & 0xFF));
      max = Math.max(max, d);
      sum += d;
    }
    return new double[] {max, (double) sum / a.length};
  }
}
