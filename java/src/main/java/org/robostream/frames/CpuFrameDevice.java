package org.robostream.frames;

import java.util.HashMap;
import java.util.Map;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.DType;
import org.robostream.arrow.FrameBatchBuilder;
import org.robostream.arrow.FrameColumn;
import org.robostream.codec.DecodedPicture;
import org.robostream.codec.DepthSamples;
import org.robostream.codec.HeldFrame;
import org.robostream.codec.HostFrameBuffer;
import org.robostream.codec.PicturePacker;
import org.robostream.codec.PixelFormats;
import org.robostream.codec.RawPicture;
import org.robostream.codec.Slot;
import org.robostream.codec.SwscaleConverter;
import org.robostream.framecache.FrameTarget;
import org.robostream.transform.FrameTransformer;
import org.robostream.video.FrameSamples;

/**
 * The CPU {@link FrameDevice}: pictures held packed as the codec produced them (YUV 4:2:0 is half
 * the bytes of RGB) in host memory, converted by swscale straight into the slots of the batch's
 * pooled host frame batch when the batch is built, scaled by the same swscale call when the batch
 * is resized. float32 from an 8-bit picture: into one RGB uint8 frame, then expanded to [0, 1] in
 * the slot (so it equals the uint8 frame / 255); from a deeper picture (10-bit, ...): swscale's
 * float conversion of its own samples straight into the slot, so the precision the uint8 frame
 * would drop survives. A depth map's values are copied from the first plane (see {@code
 * video.DepthSamples}; depth cameras are never resized). Not thread-safe: one per worker.
 */
final class CpuFrameDevice implements FrameDevice {
  private final PicturePacker packer = new PicturePacker();
  private final SwscaleConverter swscale = new SwscaleConverter();
  private final FrameTransformer transformer = new FrameTransformer();
  private final BatchMemoryPool pool;
  private final Map<FrameSize, HostFrameBuffer> rgb = new HashMap<>();

  /** {@code pool}: the host pool of the worker's batches. */
  CpuFrameDevice(BatchMemoryPool pool) {
    this.pool = pool;
  }

  @Override
  public FrameMemory newMemory(long budgetBytes) {
    return Kind.CPU.memory(pool, budgetBytes);
  }

  @Override
  public PictureHolder holder(HoldSpec spec, FrameMemory memory, HeldFrame[] out) {
    return new Holder(memory, out, spec.depthFile());
  }

  /**
   * Holds one call's pictures in {@code memory}: decoded ones packed into its blocks, cached ones
   * read into its blocks. {@code depthFile}: the file of a depth camera (its pictures must be depth
   * maps), else null.
   */
  private final class Holder implements PictureHolder {
    private final FrameMemory memory;
    private final HeldFrame[] out;
    private final String depthFile;
    private HeldFrame lastPacked;

    Holder(FrameMemory memory, HeldFrame[] out, String depthFile) {
      this.memory = memory;
      this.out = out;
      this.depthFile = depthFile;
    }

    @Override
    public void accept(int request, DecodedPicture decoded, double pts, long frameIndex) {
      RawPicture picture = decoded.raw();
      requireDepthMap(picture.pixelFormat());
      long bytes =
          PicturePacker.packedBytes(picture.width(), picture.height(), picture.pixelFormat());
      long address = memory.take(bytes);
      try {
        lastPacked = packer.pack(picture, address, pts, frameIndex);
      } catch (RuntimeException e) {
        memory.release(address, bytes);
        throw e;
      }
      out[request] = lastPacked;
    }

    @Override
    public FrameTarget packedMemory() {
      return memory;
    }

    @Override
    public void holdPacked(int request, HeldFrame f) {
      try {
        requireDepthMap(f.pixelFormat());
      } catch (RuntimeException notADepthMap) {
        memory.release(f.address(), f.bytes());
        throw notADepthMap;
      }
      out[request] = f; // the cache's frame is held as it is
    }

    @Override
    public HeldFrame lastPacked() {
      return lastPacked;
    }

    /** Nothing to give back: every block taken is passed on at once. */
    @Override
    public void releaseUndelivered() {}

    /** Refused here, naming the file, rather than when its batch is built. */
    private void requireDepthMap(int pixelFormat) {
      if (depthFile != null) {
        DepthSamples.requireDepthMap(depthFile, pixelFormat);
      }
    }
  }

  /** CPU decoders keep their position between calls: short runs switch streams cheaply. */
  @Override
  public int minRun() {
    return CPU_RUN;
  }

  @Override
  public int maxRun() {
    return CPU_RUN;
  }

  /** Host memory: a write is done when it returns. */
  @Override
  public long stream() {
    return 0;
  }

  @Override
  public void synchronize() {}

  /**
   * Scales (when the batch is resized) and converts {@code f} into the slot in one pass, with the
   * sample's image transforms: a packed 8-bit YUV picture is transformed into a block of its own
   * (the held picture may be another sample's too) and converted from there; any other picture is
   * transformed in its slot once converted.
   */
  @Override
  public void write(FrameBatchBuilder.Column column, long slot, HeldFrame f, float[] ops) {
    FrameColumn spec = column.spec();
    if (column.samples().isDepth()) {
      if (f.width() != spec.width() || f.height() != spec.height()) {
        throw new IllegalStateException(
            spec.name()
                + " depth frame is "
                + f.width()
                + "x"
                + f.height()
                + " but its slot is "
                + spec.width()
                + "x"
                + spec.height()
                + " (depth maps are never resized)");
      }
      packer.toDepth(
          f.address(),
          f.width(),
          f.height(),
          f.pixelFormat(),
          column.frameAddress(slot),
          column.samples());
      return;
    }
    boolean transformed = ops != null && ops.length > 0;
    if (transformed && transformer.takes(f.pixelFormat())) {
      long block =
          transformer.pictureBlock(transformer.bytesOf(f.width(), f.height(), f.pixelFormat()));
      transformer.transformYuv8(
          f.address(), block, f.width(), f.height(), f.pixelFormat(), fullRange(f), ops);
      f = f.at(block);
      transformed = false;
    }
    boolean uint8 = column.type() == DType.UINT8;
    if (uint8 || PixelFormats.isDeep(f.pixelFormat())) {
      toRgb(f, column.frameAddress(slot), spec, !uint8);
      if (transformed) {
        transformer.transformRgb(
            column.frameAddress(slot), spec.width(), spec.height(), spec.layout(), !uint8, ops);
      }
      return;
    }
    long scratch =
        rgb.computeIfAbsent(
                new FrameSize(spec.height(), spec.width()),
                size -> new HostFrameBuffer(1, size.height(), size.width(), column.layout()))
            .slotAddress(0);
    toRgb(f, scratch, spec, false);
    if (transformed) {
      transformer.transformRgb(scratch, spec.width(), spec.height(), spec.layout(), false, ops);
    }
    pool.expandToUnitFloats(column.frameAddress(slot), scratch, spec.frameValues(), 0);
  }

  /** Whether black is Y 0: the picture's colour description says so, or its format (yuvj*). */
  private static boolean fullRange(HeldFrame f) {
    if (f.color() != null) {
      return f.color().fullRange();
    }
    String name =
        org.bytedeco.ffmpeg.global.avutil.av_get_pix_fmt_name(f.pixelFormat()).getString();
    return name.startsWith("yuvj");
  }

  private void toRgb(HeldFrame f, long dst, FrameColumn spec, boolean unitFloats) {
    Slot slot =
        new Slot(
            dst,
            spec.width(),
            spec.height(),
            spec.layout(),
            unitFloats ? FrameSamples.RGB_FLOAT32 : FrameSamples.RGB_UINT8);
    swscale.convertPacked(f.address(), f.width(), f.height(), f.pixelFormat(), f.color(), slot);
  }

  @Override
  public void close() {
    packer.close();
    swscale.close();
    transformer.close();
  }
}
