package org.robostream.stream;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.FrameBatch;
import org.robostream.arrow.FrameBatchBuilder;
import org.robostream.arrow.FrameColumn;
import org.robostream.codec.DecoderSlot;
import org.robostream.codec.HeldFrame;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.fetch.FrameFetcher;
import org.robostream.frames.FrameDevice;
import org.robostream.frames.FrameMemory;
import org.robostream.frames.FrameSize;
import org.robostream.frames.HoldSpec;
import org.robostream.frames.PictureHolder;
import org.robostream.video.FrameSamples;

/**
 * The one route a worker's frames take from the decoder to a {@link Batch}, whatever the device:
 * decoded into a {@link PictureHolder} of the worker's {@link FrameDevice}, which holds them in
 * blocks of a {@link FrameMemory} while their sample waits in the shuffle buffer; then written by
 * the same device into the slots of the batch's pooled {@link FrameBatch} ({@link #assemble}), one
 * column per camera at its own size, with the sample's built-in image transforms (see {@link
 * SampleTransforms}), beside the table columns ({@link TableAssembler}).
 *
 * <p>Not thread-safe: one per worker thread; {@link #close()} closes the device (not the memories,
 * which belong to their creators).
 */
final class FramePath implements AutoCloseable {
  private final StreamContext ctx;
  private final FrameDevice device;
  private final BufferAllocator allocator;
  private final TableAssembler tables;
  private final BatchMemoryPool pool;
  private final BatchMemoryPool hostPool;
  private final AtomicLong openFrameBytes;

  /**
   * @param pool where the batches' frames live (host memory, or the decoding GPU's)
   * @param hostPool where {@link Batch#toHost()} copies GPU frames to (unused for host pools)
   * @param openFrameBytes frame bytes of the batches not closed yet, kept by each batch
   */
  FramePath(
      StreamContext ctx,
      FrameDevice device,
      BufferAllocator allocator,
      BatchMemoryPool pool,
      BatchMemoryPool hostPool,
      AtomicLong openFrameBytes) {
    this.ctx = ctx;
    this.device = device;
    this.allocator = allocator;
    this.tables = new TableAssembler(ctx, allocator);
    this.pool = pool;
    this.hostPool = hostPool;
    this.openFrameBytes = openFrameBytes;
  }

  /**
   * Decodes {@code frames} (episode-local) of {@code camera} into blocks of {@code memory}; request
   * i's frame is element i of the result. On failure every block taken is released here.
   */
  HeldFrame[] decode(
      FrameFetcher fetcher,
      EpisodeInfo episode,
      String camera,
      int[] frames,
      FrameMemory memory,
      DecoderSlot reader) {
    // Depth maps are video cameras; image cameras have no video file.
    FrameSamples samples = ctx.samples(camera);
    String depthFile = samples.isDepth() ? episode.video(camera).file().toString() : null;
    HoldSpec spec = new HoldSpec(ctx.frameSize(camera), samples, ctx.layout(), depthFile);
    HeldFrame[] out = new HeldFrame[frames.length];
    PictureHolder holder = device.holder(spec, memory, out);
    try {
      fetcher.fetch(episode, camera, frames, holder, reader);
    } catch (RuntimeException e) {
      holder.releaseUndelivered();
      for (HeldFrame f : out) {
        if (f != null) {
          memory.release(f.address(), f.bytes());
        }
      }
      throw e;
    }
    return out;
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
   * A batch of {@code items}, its frames written by the device. The frames' batch is exported with
   * its completion event on the device's stream, which is waited for before this returns: the held
   * frames may then be released and reused at once.
   */
  Batch assemble(List<HeldSample> items, IntPredicate flagged, long epoch, int position) {
    VectorSchemaRoot root = tables.build(items, flagged);
    FrameBatch frames = null;
    try (FrameBatchBuilder builder = new FrameBatchBuilder(pool, items.size())) {
      int base = 0; // index of the camera's first frame in HeldSample.frames
      SampleTransforms transforms = ctx.transforms();
      for (int k = 0; k < ctx.cameras().size(); k++) {
        String camera = ctx.cameras().get(k);
        FrameColumn spec = ctx.frameColumn(camera);
        FrameBatchBuilder.Column column = builder.addColumn(spec);
        int positions = spec.positions();
        for (int i = 0; i < items.size(); i++) {
          HeldSample item = items.get(i);
          float[] ops = transforms.builtInOps(item, k, spec, epoch);
          for (int t = 0; t < positions; t++) {
            HeldFrame f = item.frames()[base + t];
            checkHeldSize(camera, spec, f);
            long slot = (long) i * positions + t;
            device.write(column, slot, f, ops);
            column.setFrameInfo(slot, f.ptsSeconds(), f.frameIndex());
          }
          // The sample's frames of this camera are written (host memory: a GPU pool refuses
          // transforms when the dataset is built); the user's transform sees them all at once.
          transforms.runUser(item, k, spec, column.frameAddress((long) i * positions), epoch);
        }
        base += positions;
      }
      frames = builder.export(device.stream());
      device.synchronize();
    } catch (RuntimeException e) {
      if (frames != null) {
        frames.close(); // exported, but the wait for its copies failed
      }
      root.close();
      throw e;
    }
    return new Batch(root, allocator, epoch, position, frames, hostPool, openFrameBytes);
  }

  /**
   * A held frame must have the size its slot writer expects, or it would overrun its slot (or leave
   * part of it unwritten): converted frames (the CUDA device's, converted when decoded) the batch
   * column's; packed pictures (the CPU device's, scaled when converted) the camera's files'.
   */
  private void checkHeldSize(String camera, FrameColumn column, HeldFrame f) {
    FrameSize expected =
        f.isConverted() ? new FrameSize(column.height(), column.width()) : ctx.fileSize(camera);
    if (f.width() != expected.width() || f.height() != expected.height()) {
      throw new IllegalStateException(
          camera
              + " frame is "
              + f.width()
              + "x"
              + f.height()
              + " but "
              + expected.width()
              + "x"
              + expected.height()
              + " was expected ("
              + (f.isConverted() ? "the batch's size" : "info.json's size")
              + ")");
    }
  }

  @Override
  public void close() {
    device.close();
  }
}
