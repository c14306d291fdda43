package org.robostream.stream;

import java.util.List;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.video.DecoderSlot;

/**
 * How a worker's frames travel from the decoder to a batch: decoded into blocks of a {@link
 * FrameMemory} when their sample enters the shuffle buffer (or when its batch is built), then
 * written into the batch's pooled frame batch ({@link BatchMaker}) when the sample is delivered.
 * Two paths: {@link HostFramePath} (pictures held packed in host memory, converted into host slots)
 * and {@link DeviceFramePath} (RGB frames held on the batch device, copied into its slots: NVDEC on
 * a GPU, or the same path in host memory).
 *
 * <p>Not thread-safe: one per worker thread; {@link #close()} frees what the path owns (not the
 * memories, which belong to their creators).
 */
interface FramePath extends AutoCloseable {
  /** Receives request {@code request}'s held frame. */
  @FunctionalInterface
  interface HeldFrames {
    void put(int request, PackedFrame frame);
  }

  /**
   * Decodes {@code frames} (episode-local) of {@code camera} into blocks of {@code memory}; request
   * i's frame goes to {@code out}. On failure, blocks not handed to {@code out} are released here;
   * the caller releases the others.
   */
  void decode(
      FrameFetcher fetcher,
      EpisodeInfo episode,
      String camera,
      int[] frames,
      FrameMemory memory,
      DecoderSlot reader,
      HeldFrames out);

  /**
   * Frames of a stream decoded in one call when the first of them enters the shuffle buffer: at
   * least {@code minRun}; past that, on to the end of the frame's GOP but never beyond {@code
   * maxRun} (equal values: fixed runs).
   */
  int minRun();

  int maxRun();

  /** Memory without a budget, for frames decoded when their batch is built. */
  FrameMemory newScratch();

  /**
   * Builds a batch from samples whose frames are held. When this returns, the held frames may be
   * released and reused (everything that reads them is done).
   */
  Batch assemble(List<HeldSample> items, boolean padding, long epoch, int position);

  @Override
  void close();
}
