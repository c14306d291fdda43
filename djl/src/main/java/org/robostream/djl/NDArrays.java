package org.robostream.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import org.robostream.arrow.DType;
import org.robostream.arrow.Tensor;

/**
 * One robostream {@link Tensor} as a DJL {@link NDArray} of the same name, shape and element type.
 *
 * <p>Copies: on a CPU manager the array is a view of the tensor's host memory (the PyTorch engine
 * wraps a direct buffer with {@code from_blob}: no copy), so it must be closed before the batch the
 * tensor came from; on a GPU manager the engine copies it to the device once. Stateless,
 * thread-safe.
 */
final class NDArrays {
  private NDArrays() {}

  /** {@code tensor} (host memory) as an array of {@code manager}; see the class comment. */
  static NDArray of(Tensor tensor, NDManager manager) {
    long[] dims = tensor.shape();
    NDArray array = manager.create(tensor.data(), new Shape(dims), dataType(tensor));
    array.setName(tensor.name());
    return array;
  }

  static DataType dataType(Tensor tensor) {
    DType dtype = tensor.dtype();
    return switch (dtype) {
      case UINT8 -> DataType.UINT8;
      case UINT16 -> DataType.UINT16;
      case FLOAT32 -> DataType.FLOAT32;
      case FLOAT64 -> DataType.FLOAT64;
      case INT64 -> DataType.INT64;
      case BOOL -> DataType.BOOLEAN;
    };
  }
}
