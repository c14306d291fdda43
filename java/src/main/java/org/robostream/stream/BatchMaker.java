package org.robostream.stream;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.FrameBatch;
import org.robostream.arrow.FrameBatchBuilder;
import org.robostream.arrow.FrameColumn;
import org.robostream.frames.FrameDevice;
import org.robostream.frames.FrameSize;
import org.robostream.video.HeldFrame;

/**
 * Makes every {@link Batch} of a worker, whichever {@link FrameDevice} held its frames: the table
 * columns ({@link TableAssembler}) plus one pooled {@link FrameBatch} with a column per camera of
 * its own size, whose slots the device fills from the held frames ({@link FrameDevice#write}, with
 * the sample's built-in image transforms: see {@link SampleTransforms}). Not thread-safe: one per
 * worker.
 */
final class BatchMaker {
  private final StreamContext ctx;
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
  BatchMaker(
      StreamContext ctx,
      BufferAllocator allocator,
      BatchMemoryPool pool,
      BatchMemoryPool hostPool,
      AtomicLong openFrameBytes) {
    this.ctx = ctx;
    this.allocator = allocator;
    this.tables = new TableAssembler(ctx, allocator);
    this.pool = pool;
    this.hostPool = hostPool;
    this.openFrameBytes = openFrameBytes;
  }

  /**
   * A batch of {@code items}, its frames written by {@code device}. The frames' batch is exported
   * with its completion event on the device's stream, which is waited for before this returns: the
   * held frames may then be released and reused at once.
   */
  Batch make(
      List<HeldSample> items,
      java.util.function.IntPredicate flagged,
      long epoch,
      int position,
      FrameDevice device) {
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
}
