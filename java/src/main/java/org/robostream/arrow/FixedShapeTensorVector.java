package org.robostream.arrow;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * A vector of {@link FixedShapeTensorType} values over FixedSizeList storage. Gives zero-copy
 * access to each tensor's bytes. Not thread-safe for writes; reads of an immutable imported batch
 * may happen from several threads.
 */
public final class FixedShapeTensorVector extends ExtensionTypeVector<FixedSizeListVector> {
  private final Field field;

  public FixedShapeTensorVector(
      String name, BufferAllocator allocator, FieldType fieldType, FixedSizeListVector storage) {
    super(name, allocator, storage);
    this.field = new Field(name, fieldType, null);
  }

  @Override
  public Field getField() {
    // Keep the extension type in the field (the storage vector only knows the list type).
    FieldVector values = getUnderlyingVector().getDataVector();
    return new Field(field.getName(), field.getFieldType(), java.util.List.of(values.getField()));
  }

  public FixedShapeTensorType tensorType() {
    return (FixedShapeTensorType) field.getType();
  }

  @Override
  public Object getObject(int index) {
    ByteBuffer bytes = tensorBytes(index);
    byte[] out = new byte[bytes.remaining()];
    bytes.get(out);
    return out;
  }

  /**
   * Tensor {@code index}'s bytes as a read-only view of the vector's memory (no copy), in native
   * byte order (how the values were written), valid while the vector's buffers are.
   */
  public ByteBuffer tensorBytes(int index) {
    if (index < 0 || index >= getValueCount()) {
      throw new IndexOutOfBoundsException("tensor " + index + " of " + getValueCount());
    }
    int size = tensorByteSize();
    ArrowBuf data = getUnderlyingVector().getDataVector().getDataBuffer();
    // asReadOnlyBuffer() resets the order to big-endian.
    return data.nioBuffer((long) index * size, size)
        .asReadOnlyBuffer()
        .order(ByteOrder.nativeOrder());
  }

  /** Native address of tensor {@code index}'s first byte. */
  public long tensorAddress(int index) {
    return getUnderlyingVector().getDataVector().getDataBuffer().memoryAddress()
        + (long) index * tensorByteSize();
  }

  /**
   * Bytes per tensor: the list size times the width of the values the storage holds (uint8 or
   * float32; read from the storage's child, since the extension metadata has no value type).
   */
  private int tensorByteSize() {
    FieldVector values = getUnderlyingVector().getDataVector();
    int width = values instanceof BaseFixedWidthVector fixed ? fixed.getTypeWidth() : 1;
    return Math.multiplyExact(tensorType().listSize(), width);
  }

  @Override
  public int hashCode(int index) {
    return getUnderlyingVector().hashCode(index);
  }

  @Override
  public int hashCode(int index, org.apache.arrow.memory.util.hash.ArrowBufHasher hasher) {
    return getUnderlyingVector().hashCode(index, hasher);
  }
}
