package org.robostream.stream;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.video.PackedPicture;

/**
 * The CPU path: pictures held packed as the codec produced them (YUV 4:2:0 is half the bytes of
 * RGB) in host memory, converted by swscale straight into the batch's Arrow tensor when the
 * batch is built. Not thread-safe: one per worker.
 */
final class HostFramePath implements FramePath {
  private final PackedPicture packer = new PackedPicture();
  private final BatchAssembler assembler;
  private final BufferAllocator allocator;

  HostFramePath(StreamContext ctx, BufferAllocator allocator, TensorMemoryPool tensors) {
    this.assembler = new BatchAssembler(ctx, allocator, tensors);
    this.allocator = allocator;
  }

  @Override
  public void decode(FrameFetcher fetcher, EpisodeInfo episode, String camera, int[] frames,
      FrameMemory memory, long reader, HeldFrames out) {
    fetcher.fetch(episode, camera, frames, (request, picture, pts) -> {
      long bytes = PackedPicture.packedBytes(picture.width(), picture.height(),
          picture.pixelFormat());
      long address = memory.take(bytes);
      out.put(request, new PackedFrame(address, bytes, picture.width(), picture.height(),
          picture.pixelFormat(), picture.color(), pts, -1));
      packer.pack(picture, address);
    }, reader);
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
  public Batch assemble(List<BatchAssembler.Item> items, boolean padding, long epoch,
      int position) {
    return new Batch(assembler.build(items, padding, packer), allocator, epoch, position);
  }

  @Override
  public void close() {
    packer.close();
  }
}
