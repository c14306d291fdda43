package org.robostream.torch.policy;

import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch;

/**
 * Float tensors to and from Java arrays, the one place values cross between the heap and libtorch
 * for checkpoints and initial weights. Stateless, thread-safe.
 */
final class Tensors {
  private Tensors() {}

  /**
   * A new tensor of {@code values} on {@code device}: a leaf requiring gradients, or a constant.
   * The tensor returned is the owning object: libtorch's in-place calls ({@code set_requires_grad},
   * {@code mul_}, ...) return a second Java object without ownership, which is never kept.
   */
  static Tensor of(long[] shape, float[] values, Device device, boolean requiresGrad) {
    Tensor host;
    try (FloatPointer data = new FloatPointer(values)) {
      host = torch.from_blob(data, shape, new TensorOptions(torch.ScalarType.Float)).clone();
    }
    Tensor t = device.is_cpu() ? host : host.to(device, torch.ScalarType.Float);
    t.set_requires_grad(requiresGrad);
    return t;
  }

  /** The values of a float tensor, row-major, read back to the heap. */
  static float[] values(Tensor t) {
    Tensor host = t.detach().cpu().contiguous();
    float[] out = new float[Math.toIntExact(host.numel())];
    try (FloatPointer data = host.data_ptr_float()) {
      data.get(out);
    }
    return out;
  }

  /** A tensor's shape. */
  static long[] shape(Tensor t) {
    return t.sizes().vec().get();
  }

  static long count(long[] shape) {
    long n = 1;
    for (long d : shape) {
      n *= d;
    }
    return n;
  }
}
