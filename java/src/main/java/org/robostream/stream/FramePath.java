package org.robostream.stream;

import java.util.List;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.fetch.FrameFetcher;
import org.robostream.frames.FrameDevice;
import org.robostream.frames.FrameMemory;
import org.robostream.frames.HoldSpec;
import org.robostream.frames.PictureHolder;
import org.robostream.video.DecoderSlot;
import org.robostream.video.FrameSamples;

/**
 * The one route a worker's frames take from the decoder to a batch, whatever the device: decoded
 * into a {@link PictureHolder} of the worker's {@link FrameDevice}, which holds them in blocks of a
 * {@link FrameMemory} while their sample waits in the shuffle buffer (or until its batch is built),
 * then written by the same device into the slots of the batch's pooled frame batch ({@link
 * BatchMaker}) when the sample is delivered.
 *
 * <p>Not thread-safe: one per worker thread (the record is immutable, its device and maker are
 * not); {@link #close()} closes the device (not the memories, which belong to their creators).
 */
record FramePath(StreamContext ctx, FrameDevice device, BatchMaker maker) implements AutoCloseable {
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
      FrameDevice.HeldFrames out) {
    // Depth maps are video cameras; image cameras have no video file.
    FrameSamples samples = ctx.samples(camera);
    String depthFile = samples.isDepth() ? episode.video(camera).file().toString() : null;
    HoldSpec spec = new HoldSpec(ctx.frameSize(camera), samples, ctx.layout(), depthFile);
    PictureHolder holder = device.holder(spec, memory, out);
    try {
      fetcher.fetch(episode, camera, frames, holder, reader);
    } catch (RuntimeException e) {
      holder.releaseUndelivered();
      throw e;
    }
  }

  /** See {@link FrameDevice#minRun()}. */
  int minRun() {
    return device.minRun();
  }

  int maxRun() {
    return device.maxRun();
  }

  /** Memory without a budget, for frames decoded when their batch is built. */
  FrameMemory newScratch() {
    return device.newMemory(Long.MAX_VALUE);
  }

  /**
   * Builds a batch from samples whose frames are held. When this returns, the held frames may be
   * released and reused (everything that reads them is done).
   */
  Batch assemble(
      List<HeldSample> items, java.util.function.IntPredicate flagged, long epoch, int position) {
    return maker.make(items, flagged, epoch, position, device);
  }

  @Override
  public void close() {
    device.close();
  }
}
