package org.robostream.arrow;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.robostream.nativecore.NativeCore;
import org.robostream.nativecore.NativeHandle;
import org.robostream.nativecore.NativeStatus;
import org.robostream.video.FrameDestination;
import org.robostream.video.FrameLayout;

/**
 * A batch of decoded frames in native memory: one frame column per camera (with its pts and frame
 * index columns), filled by decoders through {@link Column} and then handed to Java or any other
 * Arrow consumer through the Arrow C Data interface without copying pixels.
 *
 * <p>Ownership: the batch owns its native memory until an export ({@link #toJava} or
 * {@link #exportTo}) succeeds; from then on the exported array owns it and its release callback
 * frees it. A failed export leaves the batch here. {@link #close()} frees an unexported batch and
 * is idempotent.
 *
 * <p>Threading: not thread-safe for adding columns or exporting; distinct slots may be filled by
 * different threads concurrently.
 */
public final class NativeFrameBatch implements AutoCloseable {
  private final NativeHandle handle;
  private final long rows;
  private final List<Column> columns = new ArrayList<>();

  public NativeFrameBatch(long rows) {
    NativeCore.ensureLoaded();
    long[] out = new long[1];
    NativeStatus.check(NativeCore.rs_batch_create(rows, out), "cannot create a frame batch");
    this.handle = new NativeHandle(this, out[0], NativeCore::rs_batch_free, "frame batch");
    this.rows = rows;
  }

  public long rows() {
    return rows;
  }

  /** Adds a frame column of {@code height} x {@code width} RGB frames in {@code layout}. */
  public Column addFrameColumn(String name, int height, int width, FrameLayout layout) {
    int[] out = new int[1];
    NativeStatus.check(NativeCore.rs_batch_add_frame_column(live(), name, height, width,
        layout.nativeCode(), out), "cannot add frame column " + name);
    long base = 0;
    if (rows > 0) {
      long[] address = new long[1];
      NativeStatus.check(NativeCore.rs_batch_frame_slot(live(), out[0], 0, address), "slot");
      base = address[0];
    }
    Column column = new Column(out[0], name, height, width, layout, base);
    columns.add(column);
    return column;
  }

  public List<Column> columns() {
    return List.copyOf(columns);
  }

  /**
   * Exports the batch and imports it into a {@link VectorSchemaRoot} of {@code allocator} (zero
   * copy). The root now owns the memory: closing it frees the native batch.
   */
  public VectorSchemaRoot toJava(BufferAllocator allocator) {
    FixedShapeTensorType.register();
    try (ArrowArray array = ArrowArray.allocateNew(allocator);
        ArrowSchema schema = ArrowSchema.allocateNew(allocator)) {
      exportTo(array.memoryAddress(), schema.memoryAddress());
      return Data.importVectorSchemaRoot(allocator, array, schema, null);
    }
  }

  /**
   * Exports into caller-allocated C structs ({@code struct ArrowArray}, {@code struct
   * ArrowSchema}); the consumer must call their release callbacks.
   */
  public void exportTo(long arrowArrayAddress, long arrowSchemaAddress) {
    // robostream.h's ownership rule: a failed export leaves the batch with us (close() frees it);
    // on success the exported array owns it.
    NativeStatus.check(NativeCore.rs_batch_export(live(), arrowArrayAddress, arrowSchemaAddress),
        "cannot export the frame batch");
    handle.release();
  }

  private long live() {
    return handle.get();
  }

  @Override
  public void close() {
    handle.close();
  }

  /** One frame column, usable as a decoder's {@link FrameDestination}. */
  public final class Column implements FrameDestination {
    private final int index;
    private final String name;
    private final int height;
    private final int width;
    private final FrameLayout layout;
    private final long base;

    private Column(int index, String name, int height, int width, FrameLayout layout, long base) {
      this.index = index;
      this.name = name;
      this.height = height;
      this.width = width;
      this.layout = layout;
      this.base = base;
    }

    public String name() {
      return name;
    }

    @Override
    public int width() {
      return width;
    }

    @Override
    public int height() {
      return height;
    }

    @Override
    public FrameLayout layout() {
      return layout;
    }

    @Override
    public long slotAddress(int row) {
      live();
      if (row < 0 || row >= rows) {
        throw new IndexOutOfBoundsException("row " + row + " of " + rows);
      }
      return base + row * frameBytes();
    }

    @Override
    public void delivered(int row, double ptsSeconds, long frameIndex) {
      NativeStatus.check(NativeCore.rs_batch_set_frame_info(live(), index, row, ptsSeconds,
          frameIndex), "frame info");
    }
  }
}
