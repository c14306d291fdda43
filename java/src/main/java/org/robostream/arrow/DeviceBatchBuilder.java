package org.robostream.arrow;

import java.util.ArrayList;
import java.util.List;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeHandle;
import org.robostream.nativecore.NativeStatus;
import org.robostream.video.FrameDestination;
import org.robostream.video.FrameLayout;

/**
 * A batch of frames being filled in pooled memory of one device (see {@link BatchMemoryPool}):
 * frame columns are added, their slots written by decoders (a CPU converter for host pools, the
 * NVDEC colour kernel for CUDA pools), then {@link #export(long)} hands the batch out as a
 * {@link DeviceBatch} (Arrow C Device Data interface).
 *
 * <p>Ownership: the builder owns the native batch until {@link #export(long)} succeeds (a failed
 * export leaves it with the builder, as robostream.h's ownership rule says); {@link #close()}
 * returns an unexported batch's buffers to the pool and is idempotent. A {@link Column} is valid
 * while its builder holds the batch: after an export or close its slots belong to the pool again
 * (soon another batch), so every slot access throws {@link IllegalStateException}. Threading: not
 * thread-safe for adding columns and exporting; distinct slots may be written by different
 * threads.
 */
public final class DeviceBatchBuilder implements AutoCloseable {
  private final NativeHandle handle;
  private final BatchMemoryPool pool;
  private final long rows;
  private final List<Column> columns = new ArrayList<>();

  public DeviceBatchBuilder(BatchMemoryPool pool, long rows) {
    long[] out = new long[1];
    NativeStatus.check(NativeCore.rs_device_batch_create(pool.handle(), rows, out),
        "cannot create a device batch of " + rows + " rows");
    this.handle = new NativeHandle(this, out[0], NativeCore::rs_device_batch_free,
        "device batch");
    this.pool = pool;
    this.rows = rows;
  }

  public long rows() {
    return rows;
  }

  /** Adds a frame column of RGB frames ({@code 3 * height * width} values per row). */
  public Column addFrameColumn(String name, int height, int width, FrameLayout layout,
      FrameValueType type) {
    return addWindowColumn(name, 1, height, width, layout, type);
  }

  /**
   * Adds a column of {@code positions} frames per row (a time window: tensor shape [T, ...] with
   * per-frame pts and frame index). Its slots are numbered {@code row * positions + t}.
   */
  public Column addWindowColumn(String name, int positions, int height, int width,
      FrameLayout layout, FrameValueType type) {
    int[] out = new int[1];
    NativeStatus.check(NativeCore.rs_device_batch_add_window_column(handle.get(), name,
        positions, height, width, layout.nativeCode(), type.nativeCode(), out),
        "cannot add frame column " + name);
    long[] address = new long[1];
    NativeStatus.check(NativeCore.rs_device_batch_frame_slot(handle.get(), out[0], 0, address),
        "slot of " + name);
    Column column = new Column(out[0], name, positions, height, width, layout, type, address[0]);
    columns.add(column);
    return column;
  }

  public List<Column> columns() {
    return List.copyOf(columns);
  }

  /**
   * Exports the batch; its completion event is recorded on {@code cudaStream} (the stream that
   * wrote the frames; 0 for the default stream; ignored for host pools). On success the builder
   * is spent; when the export fails the builder still owns the batch (close it, or export again).
   */
  public DeviceBatch export(long cudaStream) {
    DeviceBatch exported = DeviceBatch.allocate();
    try {
      NativeStatus.check(NativeCore.rs_device_batch_export(handle.get(), cudaStream,
          exported.deviceArrayAddress(), exported.schemaAddress()), "cannot export device batch");
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
   * One frame column; slots are addressed on the pool's device. A uint8 column of a host pool is
   * also a {@link FrameDestination}, so CPU decoders write into it directly.
   */
  public final class Column implements FrameDestination {
    private final int index;
    private final String name;
    private final int positions;
    private final int height;
    private final int width;
    private final FrameLayout layout;
    private final FrameValueType type;
    private final long base;

    Column(int index, String name, int positions, int height, int width, FrameLayout layout,
        FrameValueType type, long base) {
      this.index = index;
      this.name = name;
      this.positions = positions;
      this.height = height;
      this.width = width;
      this.layout = layout;
      this.type = type;
      this.base = base;
    }

    public String name() {
      return name;
    }

    /** Frames per row (1, or the window length T). */
    public int positions() {
      return positions;
    }

    /** The pool whose device the slots live on. */
    public BatchMemoryPool pool() {
      return pool;
    }

    @Override
    public int height() {
      return height;
    }

    @Override
    public int width() {
      return width;
    }

    @Override
    public FrameLayout layout() {
      return layout;
    }

    public FrameValueType type() {
      return type;
    }

    @Override
    public long frameBytes() {
      return 3L * height * width * type.bytes();
    }

    /**
     * Address of frame slot {@code slot} ({@code row * positions + t}; a device pointer for CUDA
     * pools).
     */
    public long frameAddress(long slot) {
      if (!handle.isOpen()) {
        throw new IllegalStateException("column " + name + " belongs to a device batch that was"
            + " exported or closed; its slots are the pool's again");
      }
      if (slot < 0 || slot >= rows * positions) {
        throw new IndexOutOfBoundsException("slot " + slot + " of " + rows + " rows x "
            + positions + " frames");
      }
      return base + slot * frameBytes();
    }

    /**
     * A decoder's slot: uint8 columns only; in host memory for CPU decoders, in device memory for
     * NVDEC ({@link #onDevice()}).
     */
    @Override
    public long slotAddress(int request) {
      if (type != FrameValueType.UINT8) {
        throw new IllegalStateException("decoders write uint8 frames; column " + name
            + " holds " + type + " on " + pool);
      }
      return frameAddress(request);
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
      return pool.deviceType() == BatchMemoryPool.DEVICE_CUDA;
    }

    @Override
    public void delivered(int request, double ptsSeconds, long frameIndex) {
      setFrameInfo(request, ptsSeconds, frameIndex);
    }

    /** Records the pts and frame index of frame slot {@code slot}. */
    public void setFrameInfo(long slot, double ptsSeconds, long frameIndex) {
      NativeStatus.check(NativeCore.rs_device_batch_set_frame_info(handle.get(), index, slot,
          ptsSeconds, frameIndex), "frame info of " + name);
    }
  }
}
