package org.robostream.arrow;

import java.util.ArrayList;
import java.util.List;
import org.robostream.codec.FrameDestination;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeHandle;
import org.robostream.nativecore.NativeStatus;
import org.robostream.video.FrameLayout;
import org.robostream.video.FrameSamples;

/**
 * A {@link FrameBatch} being filled in pooled memory of one device (see {@link BatchMemoryPool}):
 * frame columns are added, each with its own frame size, their slots written by decoders (a CPU
 * converter for host pools, the NVDEC colour kernel for CUDA pools) or copied from frames held
 * elsewhere, then {@link #export(long)} hands the batch out (Arrow C Device Data interface).
 *
 * <p>Ownership: the builder owns the native batch until {@link #export(long)} succeeds (a failed
 * export leaves it with the builder, as robostream.h's ownership rule says); {@link #close()}
 * returns an unexported batch's buffers to the pool and is idempotent. A {@link Column} is valid
 * while its builder holds the batch: after an export or close its slots belong to the pool again
 * (soon another batch), so every slot access throws {@link IllegalStateException}. Threading: not
 * thread-safe for adding columns and exporting; distinct slots may be written by different threads.
 */
public final class FrameBatchBuilder implements AutoCloseable {
  private final NativeHandle handle;
  private final BatchMemoryPool pool;
  private final long rows;
  private final List<Column> columns = new ArrayList<>();

  public FrameBatchBuilder(BatchMemoryPool pool, long rows) {
    long[] out = new long[1];
    NativeStatus.check(
        NativeCore.rs_device_batch_create(pool.handle(), rows, out),
        "cannot create a frame batch of " + rows + " rows");
    this.handle = new NativeHandle(this, out[0], NativeCore::rs_device_batch_free, "frame batch");
    this.pool = pool;
    this.rows = rows;
  }

  public long rows() {
    return rows;
  }

  /** Adds a frame column of RGB frames ({@code 3 * height * width} values per row). */
  public Column addFrameColumn(String name, int height, int width, FrameLayout layout, DType type) {
    return addColumn(new FrameColumn(name, 1, height, width, layout, type));
  }

  /**
   * Adds a column of {@code spec.positions()} frames per row (a time window: tensor shape [T, ...]
   * with per-frame pts and frame index). Its slots are numbered {@code row * positions + t}.
   */
  public Column addColumn(FrameColumn spec) {
    int[] out = new int[1];
    NativeStatus.check(
        NativeCore.rs_device_batch_add_window_column(
            handle.get(),
            spec.name(),
            spec.positions(),
            spec.height(),
            spec.width(),
            spec.layout().nativeCode(),
            spec.nativeDtype(),
            out),
        "cannot add frame column " + spec.name());
    long[] address = new long[1];
    NativeStatus.check(
        NativeCore.rs_device_batch_frame_slot(handle.get(), out[0], 0, address),
        "slot of " + spec.name());
    Column column = new Column(out[0], spec, address[0]);
    columns.add(column);
    return column;
  }

  public List<Column> columns() {
    return List.copyOf(columns);
  }

  /**
   * Exports the batch; its completion event is recorded on {@code cudaStream} (the stream that
   * wrote the frames; 0 for the default stream; ignored for host pools). On success the builder is
   * spent; when the export fails the builder still owns the batch (close it, or export again).
   */
  public FrameBatch export(long cudaStream) {
    FrameBatch exported = FrameBatch.allocate(rows, columns.stream().map(Column::spec).toList());
    try {
      NativeStatus.check(
          NativeCore.rs_device_batch_export(
              handle.get(), cudaStream, exported.deviceArrayAddress(), exported.schemaAddress()),
          "cannot export frame batch");
    } catch (RuntimeException e) {
      exported.close(); // the structs are empty: the native batch is still ours
      throw e;
    }
    handle.release(); // the exported array owns the native batch now
    return exported;
  }

  @Override
  public void close() {
    handle.close();
  }

  /**
   * One frame column; slots are addressed on the pool's device. A uint8 column is also a {@link
   * FrameDestination}, so decoders write into it directly (CPU converters into host pools, NVDEC
   * into CUDA pools).
   */
  public final class Column implements FrameDestination {
    private final int index;
    private final FrameColumn spec;
    private final long base;

    Column(int index, FrameColumn spec, long base) {
      this.index = index;
      this.spec = spec;
      this.base = base;
    }

    /** What the column holds. */
    public FrameColumn spec() {
      return spec;
    }

    public String name() {
      return spec.name();
    }

    /** Frames per row (1, or the window length T). */
    public int positions() {
      return spec.positions();
    }

    /** The pool whose device the slots live on. */
    public BatchMemoryPool pool() {
      return pool;
    }

    @Override
    public int height() {
      return spec.height();
    }

    @Override
    public int width() {
      return spec.width();
    }

    @Override
    public FrameLayout layout() {
      return spec.layout();
    }

    public DType type() {
      return spec.dtype();
    }

    @Override
    public long frameBytes() {
      return spec.frameBytes();
    }

    /**
     * Address of frame slot {@code slot} ({@code row * positions + t}; a device pointer for CUDA
     * pools).
     */
    public long frameAddress(long slot) {
      if (!handle.isOpen()) {
        throw new IllegalStateException(
            "column "
                + name()
                + " belongs to a frame batch that was"
                + " exported or closed; its slots are the pool's again");
      }
      if (slot < 0 || slot >= rows * positions()) {
        throw new IndexOutOfBoundsException(
            "slot " + slot + " of " + rows + " rows x " + positions() + " frames");
      }
      return base + slot * frameBytes();
    }

    /**
     * A decoder's slot: in host memory for CPU decoders, in device memory for NVDEC ({@link
     * #onDevice()}); a float32 column gets floats converted from the picture's own samples.
     */
    @Override
    public long slotAddress(int request) {
      return frameAddress(request);
    }

    @Override
    public FrameSamples samples() {
      return spec.samples();
    }

    /** Device copies are waited for: the batch's completion event is on another stream. */
    @Override
    public void copySlot(int to, int from) {
      if (!onDevice()) {
        FrameDestination.super.copySlot(to, from);
        return;
      }
      pool.copyAndWait(slotAddress(to), slotAddress(from), frameBytes());
    }

    @Override
    public boolean onDevice() {
      return pool.onCuda();
    }

    @Override
    public void delivered(int request, double ptsSeconds, long frameIndex) {
      setFrameInfo(request, ptsSeconds, frameIndex);
    }

    /** Records the pts and frame index of frame slot {@code slot}. */
    public void setFrameInfo(long slot, double ptsSeconds, long frameIndex) {
      NativeStatus.check(
          NativeCore.rs_device_batch_set_frame_info(
              handle.get(), index, slot, ptsSeconds, frameIndex),
          "frame info of " + name());
    }
  }
}
