package org.robostream.stream;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.robostream.arrow.BatchMemoryPool;
import org.robostream.arrow.DType;
import org.robostream.arrow.Tensor;

/**
 * Table columns of a batch as {@link Tensor}s: the shape is the batch dimension followed by the
 * sizes of the nested fixed-size lists ([B], [B, D], [B, T], [B, T, D]); numeric values are the
 * leaf vector's buffer itself (row-major, as the assembler writes it: zero copy); booleans are
 * expanded from Arrow's bitmap into one byte per value, since trainers index bytes, not bits (a [B,
 * T] mask is a few hundred bytes). Stateless.
 */
final class TableTensors {
  private TableTensors() {}

  static Tensor of(String name, FieldVector column, int rows, Tensor.Owner owner) {
    List<Long> dims = new ArrayList<>();
    dims.add((long) rows);
    FieldVector leaf = column;
    while (leaf instanceof FixedSizeListVector list) {
      dims.add((long) list.getListSize());
      leaf = (FieldVector) list.getDataVector();
    }
    long[] shape = dims.stream().mapToLong(Long::longValue).toArray();
    DType dtype;
    if (leaf instanceof Float4Vector) {
      dtype = DType.FLOAT32;
    } else if (leaf instanceof Float8Vector) {
      dtype = DType.FLOAT64;
    } else if (leaf instanceof BigIntVector) {
      dtype = DType.INT64;
    } else if (leaf instanceof BitVector bits) {
      return Tensor.ofCopy(name, shape, DType.BOOL, bytesOf(bits), owner);
    } else {
      throw new IllegalArgumentException(
          name
              + " holds "
              + leaf.getField().getType()
              + " values, not a tensor (strings: Batch.strings)");
    }
    return new Tensor(
        name,
        shape,
        dtype,
        BatchMemoryPool.DEVICE_CPU,
        0,
        leaf.getDataBuffer().memoryAddress(),
        owner);
  }

  private static ByteBuffer bytesOf(BitVector bits) {
    int n = bits.getValueCount();
    ByteBuffer out = ByteBuffer.allocateDirect(n).order(ByteOrder.nativeOrder());
    for (int i = 0; i < n; i++) {
      out.put(i, (byte) bits.get(i));
    }
    return out;
  }
}
