package org.robostream.frames;

import java.util.HashMap;
import java.util.Map;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.DType;
import org.robostream.arrow.FrameBatchBuilder;
import org.robostream.arrow.FrameColumn;
import org.robostream.codec.DecodedPicture;
import org.robostream.codec.HeldForm;
import org.robostream.codec.HeldFrame;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.codec.Slot;
import org.robostream.framecache.FrameTarget;
import org.robostream.transform.FrameTransformer;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;

/**
 * The CUDA {@link FrameDevice}: frames are converted when decoded (RGB uint8 at the batch's size,
 * in its layout; the conversion also resizes) into blocks of the batch device's {@link
 * BatchMemoryPool}, then copied into the batch's slots or expanded to float32 there, never leaving
 * the device. Float32 of a deeper-than-8-bit source and depth maps are held as the column's values
 * instead: expanding uint8 would lose precision. NVDEC writes the blocks directly; a host picture
 * (a CPU fallback, an image, a cached frame) goes through a host staging frame and an upload. Over
 * a host pool the same code runs in host memory: how it is tested without a GPU.
 *
 * <p>Every copy into or out of held blocks is queued on this worker's stream; after {@link
 * #synchronize} a batch's blocks may be reused. Not thread-safe: one per worker; owns its stream.
 */
final class CudaFrameDevice implements FrameDevice {
  private final BatchMemoryPool pool;
  private final long stream;
  private final FrameTransformer transformer = new FrameTransformer();
  // One host frame per frame size and value type, for pictures in host memory on a GPU pool.
  private final Map<Staging, HostFrameBuffer> staging = new HashMap<>();

  private record Staging(FrameSize size, FrameSamples samples) {}

  /** {@code pool}: where held frames wait, on the device of the worker's batches. */
  CudaFrameDevice(BatchMemoryPool pool) {
    this.pool = pool;
    this.stream = pool.createStream();
  }

  @Override
  public FrameMemory newMemory(long budgetBytes) {
    return Kind.CUDA.memory(pool, budgetBytes);
  }

  /**
   * On a GPU every call starts with a seek (decoders give their NVDEC session back between calls,
   * see Decoder), so runs are longer and end on GOP boundaries: the next run of the stream then
   * starts on a keyframe and decodes nothing twice. CPU decoders (a host pool) keep their position:
   * the CPU device's runs.
   */
  @Override
  public int minRun() {
    return pool.onCuda() ? 16 : CPU_RUN;
  }

  @Override
  public int maxRun() {
    return FrameDevice.longestRun(pool.onCuda());
  }

  @Override
  public PictureHolder holder(HoldSpec spec, FrameMemory memory, HeldFrame[] out) {
    return new Holder(spec, memory, out);
  }

  @Override
  public void write(FrameBatchBuilder.Column column, long slot, HeldFrame f, float[] ops) {
    if (column.type() == DType.UINT8 || f.form() == HeldForm.Converted.COLUMN_VALUES) {
      pool.copy(column.frameAddress(slot), f.address(), f.bytes(), stream);
    } else {
      pool.expandToUnitFloats(column.frameAddress(slot), f.address(), f.bytes(), stream);
    }
    if (ops != null && ops.length > 0) {
      // Host pools only (a GPU pool refuses transforms when the dataset is built): the copy
      // above is done when it returns. The frames are RGB already.
      FrameColumn spec = column.spec();
      transformer.transformRgb(
          column.frameAddress(slot),
          spec.width(),
          spec.height(),
          spec.layout(),
          column.type() == DType.FLOAT32,
          ops);
    }
  }

  @Override
  public long stream() {
    return stream;
  }

  @Override
  public void synchronize() {
    pool.synchronize(stream);
  }

  @Override
  public void close() {
    pool.freeStream(stream);
    transformer.close();
  }

  /**
   * What a camera's frames are held as: uint8 RGB (expanded at delivery for a float32 stream)
   * unless that would lose something: a depth map is held as its column's values, and so is float32
   * RGB of a deeper-than-8-bit picture.
   */
  private static FrameSamples heldSamples(FrameSamples delivered, boolean deep) {
    if (delivered.isDepth() || (delivered == FrameSamples.RGB_FLOAT32 && deep)) {
      return delivered;
    }
    return FrameSamples.RGB_UINT8;
  }

  /**
   * One decode call's holder: a block of the pool per request. A picture where the pool's memory is
   * (NVDEC's into a GPU pool, a host picture into a host pool) is converted straight into the
   * block; a host picture on a GPU pool into the host staging frame, then uploaded. A frame asked
   * again by the next request is copied from the previous block, not converted again.
   */
  private final class Holder implements PictureHolder {
    private final FrameSize size;
    private final FrameSamples delivered;
    private final FrameLayout layout;
    private final FrameMemory memory;
    private final HeldFrame[] out;
    // The last request's block, taken but not yet passed on only while a conversion runs.
    private long pending;
    private long pendingBytes;
    private long lastFrame = -1;
    private HeldFrame last;

    Holder(HoldSpec spec, FrameMemory memory, HeldFrame[] out) {
      this.size = spec.size();
      this.delivered = spec.samples();
      this.layout = spec.layout();
      this.memory = memory;
      this.out = out;
    }

    @Override
    public void accept(int request, DecodedPicture picture, double pts, long frameIndex) {
      if (picture.onGpu() && !pool.onCuda()) {
        // NVDEC's colour kernel writes device memory only: never a host block.
        throw new IllegalStateException(
            "a picture on the GPU cannot be held in host memory (" + pool + ")");
      }
      FrameSamples samples = heldSamples(delivered, picture.deep());
      long bytes = samples.frameBytes(size.height(), size.width());
      pending = memory.take(bytes);
      pendingBytes = bytes;
      if (last != null && frameIndex >= 0 && frameIndex == lastFrame && last.bytes() == bytes) {
        pool.copy(pending, last.address(), bytes, stream); // the same frame, asked again
      } else if (pool.onCuda() && !picture.onGpu()) {
        long host = stagingAddress(samples);
        picture.convertInto(new Slot(host, size.width(), size.height(), layout, samples));
        pool.upload(pending, host, bytes, stream);
      } else {
        picture.convertInto(new Slot(pending, size.width(), size.height(), layout, samples));
      }
      last =
          new HeldFrame(
              pending,
              bytes,
              size.width(),
              size.height(),
              samples == FrameSamples.RGB_UINT8
                  ? HeldForm.Converted.RGB_UINT8
                  : HeldForm.Converted.COLUMN_VALUES,
              null,
              pts,
              frameIndex);
      lastFrame = frameIndex;
      pending = 0;
      out[request] = last;
    }

    /**
     * The host frame a host picture is converted into before the upload into a GPU block; one per
     * size and value type, so the next picture may overwrite it only after the upload was queued
     * (uploads from pageable host memory are staged by the driver before they return).
     */
    private long stagingAddress(FrameSamples samples) {
      return staging
          .computeIfAbsent(
              new Staging(size, samples),
              s -> new HostFrameBuffer(1, size.height(), size.width(), layout, s.samples()))
          .slotAddress(0);
    }

    /** Frames are held converted, never packed: the cache hands its frames over as pictures. */
    @Override
    public FrameTarget packedMemory() {
      return null;
    }

    @Override
    public void holdPacked(int request, HeldFrame f) {
      throw new IllegalStateException("frames on this device are held converted, not packed");
    }

    @Override
    public HeldFrame lastPacked() {
      return null;
    }

    @Override
    public void releaseUndelivered() {
      if (pending != 0) {
        memory.release(pending, pendingBytes);
        pending = 0;
      }
    }
  }
}
