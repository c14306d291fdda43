// Where an output pixel of a scaled picture samples its source, as swscale's SWS_BILINEAR maps
// it: pixel centres line up, src = (dst + 0.5) * src_size / dst_size - 0.5, clamped to the
// picture, and the value is src[i0] * (1 - w1) + src[i1] * w1. Plain arithmetic shared by the
// colour kernel (colour_kernels.cu includes this file; nvcc compiles it for the device) and the
// native tests (compiled for the host): the kernel cannot run without a GPU, so this is the part
// of its scaling that is tested everywhere. Thread-safe (no state).
#pragma once

#if defined(__CUDACC__)
#define RS_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define RS_HOST_DEVICE inline
#endif

namespace rs {

// The two source samples (i0 <= i1, both inside 0..src_size-1) and the weight of the second.
struct BilinearTap {
  int i0;
  int i1;
  float w1;
};

// The tap of output index `dst` (0..dst_size-1) along one axis of `src_size` samples. Equal sizes
// give the identity (i0 == i1 == dst, w1 == 0): an unscaled picture reads exactly its own samples.
RS_HOST_DEVICE BilinearTap bilinear_tap(int dst, int src_size, int dst_size) {
  if (src_size == dst_size) return BilinearTap{dst, dst, 0.0f};
  float pos = (static_cast<float>(dst) + 0.5f) * static_cast<float>(src_size) /
                  static_cast<float>(dst_size) -
              0.5f;
  const float last = static_cast<float>(src_size - 1);
  pos = pos < 0.0f ? 0.0f : (pos > last ? last : pos);
  const int i0 = static_cast<int>(pos);  // pos >= 0: truncation is floor
  const int i1 = i0 + 1 < src_size ? i0 + 1 : i0;
  return BilinearTap{i0, i1, pos - static_cast<float>(i0)};
}

// A value interpolated between two samples with the tap's weight.
RS_HOST_DEVICE float bilinear_mix(float a, float b, float w1) { return a + (b - a) * w1; }

}  // namespace rs
