package org.robostream.stream;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.DType;
import org.robostream.arrow.FrameColumn;
import org.robostream.dataset.EpisodeInfo;
import org.robostream.transform.FrameTransformer;
import org.robostream.video.DecoderSlot;
import org.robostream.video.FrameDestination;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;
import org.robostream.video.HostFrameBuffer;

/**
 * The device path: frames are converted to RGB uint8 (in the output layout, at the batch's size: a
 * resize is done by that conversion, swscale's or NVDEC's colour kernel's) when decoded and held in
 * blocks of a {@link BatchMemoryPool} of the batch device; a batch's frames are copied from there
 * into its frame batch's slots ({@link BatchMaker}), or expanded to float32 [0, 1], so they never
 * leave the device. A float32 stream holds the frames of a deeper-than-8-bit file (10-bit, ...) as
 * float32 already, converted from the decoder's full-precision samples: expanding a uint8 frame
 * would throw that precision away (4x the held bytes, counted by the memory budget). Depth maps are
 * held as their column's values (uint16 or float32), written by a CPU decoder (NVDEC's colour
 * kernel writes RGB only). On a GPU, NVDEC writes the held blocks directly; a file NVDEC cannot
 * decode is decoded on the CPU into a host staging frame and uploaded (its decoder reports the
 * fallback). With a host pool the same path runs in host memory, which is how it is tested without
 * a GPU.
 *
 * <p>Ordering: every copy into or out of held blocks is queued on this worker's stream, and {@link
 * #assemble} waits for that stream before it returns, so the caller may release and reuse the held
 * blocks at once. Not thread-safe: one per worker; owns its stream.
 */
final class DeviceFramePath implements FramePath {
  private final StreamContext ctx;
  private final BatchMemoryPool pool;
  private final BatchMaker maker;
  private final long stream;
  private final FrameTransformer transformer = new FrameTransformer();
  // One host frame per frame size and value type, for CPU-decoded files on a GPU pool.
  private final Map<Staging, HostFrameBuffer> staging = new HashMap<>();

  private record Staging(StreamContext.FrameSize size, FrameSamples samples) {}

  /** {@code pool}: where held frames wait, on the device of {@code maker}'s batches. */
  DeviceFramePath(StreamContext ctx, BatchMaker maker, BatchMemoryPool pool) {
    this.ctx = ctx;
    this.pool = pool;
    this.maker = maker;
    this.stream = pool.createStream();
  }

  @Override
  public void decode(
      FrameFetcher fetcher,
      EpisodeInfo episode,
      String camera,
      int[] frames,
      FrameMemory memory,
      DecoderSlot reader,
      HeldFrames out) {
    HeldSlots[] made = new HeldSlots[1];
    try {
      fetcher.fetch(
          episode,
          camera,
          frames,
          (decodesOnGpu, deepSource) -> {
            made[0] = new HeldSlots(decodesOnGpu, deepSource, camera, frames.length, memory, out);
            return made[0];
          },
          reader);
    } catch (RuntimeException e) {
      if (made[0] != null) {
        made[0].releaseUndelivered();
      }
      throw e;
    }
  }

  /**
   * On a GPU every call starts with a seek (decoders give their NVDEC session back between calls,
   * see VideoDecoder), so runs are longer and end on GOP boundaries: the next run of the stream
   * then starts on a keyframe and decodes nothing twice. CPU decoders (a host pool) keep their
   * position: the host path's runs.
   */
  @Override
  public int minRun() {
    return pool.onCuda() ? 16 : 8;
  }

  @Override
  public int maxRun() {
    return maxRun(pool.onCuda());
  }

  /** The longest run: on NVDEC every call starts with a seek, so runs go on to the GOP's end. */
  static int maxRun(boolean onCuda) {
    return onCuda ? 64 : 8;
  }

  @Override
  public FrameMemory newScratch() {
    return new PoolFrameMemory(pool, Long.MAX_VALUE);
  }

  @Override
  public Batch assemble(List<HeldSample> items, boolean padding, long epoch, int position) {
    return maker.make(
        items,
        padding,
        epoch,
        position,
        stream,
        (column, slot, f, ops) -> {
          if (column.type() == DType.UINT8 || f.form() == HeldForm.Converted.COLUMN_VALUES) {
            pool.copy(column.frameAddress(slot), f.address(), f.bytes(), stream);
          } else {
            pool.expandToUnitFloats(column.frameAddress(slot), f.address(), f.bytes(), stream);
          }
          if (ops != null && ops.length > 0) {
            // Host pools only (a GPU pool refuses transforms when the dataset is built): the
            // copy above is done when it returns. The frames are RGB already.
            FrameColumn spec = column.spec();
            transformer.transformRgb(
                column.frameAddress(slot),
                spec.width(),
                spec.height(),
                spec.layout(),
                column.type() == DType.FLOAT32,
                ops);
          }
        });
  }

  @Override
  public void close() {
    pool.freeStream(stream);
    transformer.close();
  }

  /**
   * What a camera's frames are held as: uint8 RGB (expanded at delivery for a float32 stream)
   * unless that would lose something: a depth map is held as its column's values, and so is float32
   * RGB of a deeper-than-8-bit file.
   */
  private static FrameSamples heldSamples(FrameSamples delivered, boolean deep) {
    if (delivered.isDepth() || (delivered == FrameSamples.RGB_FLOAT32 && deep)) {
      return delivered;
    }
    return FrameSamples.RGB_UINT8;
  }

  /**
   * One decode call's destination: a held block per request. Where the decoder writes the pool's
   * memory (NVDEC into a GPU pool, a CPU decoder into a host pool) it converts straight into the
   * block; a CPU decoder on a GPU pool converts into the host staging frame, uploaded into the
   * block when the frame is delivered.
   */
  private final class HeldSlots implements FrameDestination {
    private final StreamContext.FrameSize size;
    private final long[] blocks;
    private final boolean[] delivered;
    private final boolean staged;
    private final boolean onDevice;
    private final FrameSamples samples;
    private final FrameMemory memory;
    private final HeldFrames out;

    HeldSlots(
        boolean onDevice,
        boolean deepSource,
        String camera,
        int requests,
        FrameMemory memory,
        HeldFrames out) {
      this.size = ctx.frameSize(camera);
      this.blocks = new long[requests];
      this.delivered = new boolean[requests];
      this.onDevice = onDevice;
      this.staged = pool.onCuda() && !onDevice;
      this.samples = heldSamples(ctx.samples(camera), deepSource);
      this.memory = memory;
      this.out = out;
    }

    @Override
    public int width() {
      return size.width();
    }

    @Override
    public int height() {
      return size.height();
    }

    @Override
    public FrameLayout layout() {
      return ctx.layout();
    }

    @Override
    public boolean onDevice() {
      return onDevice;
    }

    @Override
    public FrameSamples samples() {
      return samples;
    }

    @Override
    public long slotAddress(int request) {
      return staged ? stagingAddress() : block(request);
    }

    /** The host frame a CPU decoder writes before the upload into a GPU block. */
    private long stagingAddress() {
      return staging
          .computeIfAbsent(
              new Staging(size, samples),
              s -> new HostFrameBuffer(1, size.height(), size.width(), ctx.layout(), s.samples()))
          .slotAddress(0);
    }

    @Override
    public void copySlot(int to, int from) {
      if (!staged) { // staged requests are uploaded from the same staging frame when delivered
        pool.copy(block(to), blocks[from], frameBytes(), stream);
      }
    }

    @Override
    public void delivered(int request, double ptsSeconds, long frameIndex) {
      if (staged) {
        pool.upload(block(request), stagingAddress(), frameBytes(), stream);
      }
      delivered[request] = true;
      out.put(
          request,
          new PackedFrame(
              blocks[request],
              frameBytes(),
              size.width(),
              size.height(),
              samples == FrameSamples.RGB_UINT8
                  ? HeldForm.Converted.RGB_UINT8
                  : HeldForm.Converted.COLUMN_VALUES,
              null,
              ptsSeconds,
              frameIndex));
    }

    private long block(int request) {
      if (blocks[request] == 0) {
        blocks[request] = memory.take(frameBytes());
      }
      return blocks[request];
    }

    /** Blocks taken for frames that never reached the caller (the decode failed). */
    void releaseUndelivered() {
      for (int i = 0; i < blocks.length; i++) {
        if (blocks[i] != 0 && !delivered[i]) {
          memory.release(blocks[i], frameBytes());
        }
      }
    }
  }
}
