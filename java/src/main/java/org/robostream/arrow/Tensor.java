package org.robostream.arrow;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.robostream.nativecore.NativeAddress;

/**
 * A shaped view of one column of a batch, as a trainer takes it: name, shape (batch dimension
 * first), element type, the device its memory is on, and the memory itself — a read-only {@link
 * ByteBuffer} in native byte order for host memory, a device pointer ({@link #address()}) for CUDA
 * memory. Views are zero copy wherever the memory allows: frames and numeric columns point into the
 * batch; {@link DType#BOOL} columns are expanded from Arrow's bitmaps into bytes.
 *
 * <p>Lifetime: the memory belongs to the batch the tensor came from and returns to a pool when that
 * batch is closed; {@link #data()} then throws {@link IllegalStateException}, and a buffer taken
 * before must not be read after (copy what must outlive the batch). Immutable; reading from several
 * threads is safe while the batch stays open.
 */
public final class Tensor {
  /** Tells whether the owner's memory may still be read; throws when it may not. */
  @FunctionalInterface
  public interface Owner {
    void ensureReadable();
  }

  private final String name;
  private final long[] shape;
  private final DType dtype;
  private final int deviceType;
  private final long deviceId;
  private final long address;
  private final ByteBuffer copy; // values made for this tensor (expanded booleans), else null
  private final Owner owner;

  /**
   * @param deviceType {@link BatchMemoryPool#DEVICE_CPU} or {@link BatchMemoryPool#DEVICE_CUDA}
   * @param address the first value's address (a device pointer for CUDA memory)
   */
  public Tensor(
      String name,
      long[] shape,
      DType dtype,
      int deviceType,
      long deviceId,
      long address,
      Owner owner) {
    this.name = name;
    this.shape = shape.clone();
    this.dtype = dtype;
    this.deviceType = deviceType;
    this.deviceId = deviceId;
    this.address = address;
    this.copy = null;
    this.owner = owner;
  }

  private Tensor(String name, long[] shape, DType dtype, ByteBuffer copy, Owner owner) {
    this.name = name;
    this.shape = shape.clone();
    this.dtype = dtype;
    this.deviceType = BatchMemoryPool.DEVICE_CPU;
    this.deviceId = 0;
    this.address = new org.bytedeco.javacpp.Pointer(copy.duplicate().clear()).address();
    this.copy = copy;
    this.owner = owner;
  }

  /**
   * A host tensor over values made for it ({@code values}: a direct buffer in native order), where
   * the batch's memory has no such layout; kept reachable by the tensor.
   */
  public static Tensor ofCopy(
      String name, long[] shape, DType dtype, ByteBuffer values, Owner owner) {
    if (!values.isDirect()) {
      throw new IllegalArgumentException("tensor values must be a direct buffer");
    }
    return new Tensor(name, shape, dtype, values, owner);
  }

  public String name() {
    return name;
  }

  /** Dimensions, batch first: [B], [B, D], [B, T], [B, T, D], frames [B, (T,) C, H, W]. */
  public long[] shape() {
    return shape.clone();
  }

  public DType dtype() {
    return dtype;
  }

  /** {@link BatchMemoryPool#DEVICE_CPU} or {@link BatchMemoryPool#DEVICE_CUDA}. */
  public int deviceType() {
    return deviceType;
  }

  public long deviceId() {
    return deviceId;
  }

  public boolean onCuda() {
    return deviceType == BatchMemoryPool.DEVICE_CUDA;
  }

  /** Address of the first value: host memory, or a device pointer for CUDA tensors. */
  public long address() {
    owner.ensureReadable();
    return address;
  }

  public long elements() {
    long n = 1;
    for (long d : shape) {
      n = Math.multiplyExact(n, d);
    }
    return n;
  }

  public long byteSize() {
    return Math.multiplyExact(elements(), dtype.bytes());
  }

  /**
   * The values in host memory, row-major, native byte order (a new read-only view at position 0
   * each call). CUDA tensors have none: copy their batch to the host first ({@code toHost()}), or
   * read them on the GPU at {@link #address()}.
   */
  public ByteBuffer data() {
    owner.ensureReadable();
    if (onCuda()) {
      throw new IllegalStateException(
          name
              + " is in cuda:"
              + deviceId
              + " memory; call toHost()"
              + " on its batch for host values, or read it on the GPU at address()");
    }
    long bytes = byteSize();
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalStateException(
          name
              + " holds "
              + bytes
              + " bytes, more than a ByteBuffer"
              + " can view; read it at address()");
    }
    ByteBuffer view =
        copy != null
            ? copy.duplicate().clear()
            : NativeAddress.bytesAt(address, bytes).asByteBuffer();
    // asReadOnlyBuffer() resets the order to big-endian: set it after.
    return view.asReadOnlyBuffer().order(ByteOrder.nativeOrder());
  }

  @Override
  public String toString() {
    return "Tensor["
        + name
        + " "
        + dtype
        + Arrays.toString(shape)
        + " on "
        + BatchMemoryPool.describe(deviceType, deviceId)
        + "]";
  }
}
