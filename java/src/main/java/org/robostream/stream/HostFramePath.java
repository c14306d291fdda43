package org.robostream.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.DType;
import org.robostream.arrow.FrameBatchBuilder;
import org.robostream.arrow.FrameColumn;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.video.HostFrameBuffer;
import org.robostream.video.PackedPicture;

/**
 * The CPU path: pictures held packed as the codec produced them (YUV 4:2:0 is half the bytes of
 * RGB) in host memory, converted by swscale straight into the slots of the batch's pooled host
 * frame batch when the batch is built (float32: into one RGB frame, then expanded to [0, 1] in the
 * slot), scaled by the same swscale call when the batch is resized. Not thread-safe: one per
 * worker.
 */
final class HostFramePath implements FramePath {
  private final PackedPicture packer = new PackedPicture();
  private final BatchMaker maker;
  private final BatchMemoryPool pool;
  private final Map<StreamContext.FrameSize, HostFrameBuffer> rgb = new HashMap<>();

  /** {@code pool}: the host pool of {@code maker}'s batches. */
  HostFramePath(BatchMaker maker, BatchMemoryPool pool) {
    this.maker = maker;
    this.pool = pool;
  }

  @Override
  public void decode(
      FrameFetcher fetcher,
      EpisodeInfo episode,
      String camera,
      int[] frames,
      FrameMemory memory,
      long reader,
      HeldFrames out) {
    fetcher.fetch(
        episode,
        camera,
        frames,
        (request, picture, pts, frameIndex) -> {
          long bytes =
              PackedPicture.packedBytes(picture.width(), picture.height(), picture.pixelFormat());
          long address = memory.take(bytes);
          out.put(
              request,
              new PackedFrame(
                  address,
                  bytes,
                  picture.width(),
                  picture.height(),
                  picture.pixelFormat(),
                  picture.color(),
                  pts,
                  frameIndex));
          packer.pack(picture, address);
        },
        reader);
  }

  /** CPU decoders keep their position between calls: short runs switch streams cheaply. */
  @Override
  public int minRun() {
    return 8;
  }

  @Override
  public int maxRun() {
    return 8;
  }

  @Override
  public FrameMemory newScratch() {
    return new FrameStore(Long.MAX_VALUE);
  }

  @Override
  public Batch assemble(List<HeldSample> items, boolean padding, long epoch, int position) {
    return maker.make(items, padding, epoch, position, 0, this::convert);
  }

  /** Scales (when the batch is resized) and converts {@code f} into the slot in one pass. */
  private void convert(FrameBatchBuilder.Column column, long slot, PackedFrame f) {
    FrameColumn spec = column.spec();
    if (column.type() == DType.UINT8) {
      toRgb(f, column.frameAddress(slot), spec);
      return;
    }
    long scratch =
        rgb.computeIfAbsent(
                new StreamContext.FrameSize(spec.height(), spec.width()),
                size -> new HostFrameBuffer(1, size.height(), size.width(), column.layout()))
            .slotAddress(0);
    toRgb(f, scratch, spec);
    pool.expandToUnitFloats(column.frameAddress(slot), scratch, spec.frameValues(), 0);
  }

  private void toRgb(PackedFrame f, long dst, FrameColumn spec) {
    packer.toRgb(
        f.address(),
        f.width(),
        f.height(),
        f.pixelFormat(),
        f.color(),
        dst,
        spec.width(),
        spec.height(),
        spec.layout());
  }

  @Override
  public void close() {
    packer.close();
  }
}
