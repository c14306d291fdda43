// NV12 / P016 (NVDEC's output surfaces) to RGB, uint8 or float32 in [0, 1], HWC or CHW, written
// straight into a batch slot. Compiled by nvcc to PTX only (no CUDA runtime): the core embeds the
// PTX and loads it through the driver API (cuModuleLoadData), so it needs libcuda at run time and
// nothing at link time, and the driver JIT-compiles it for whatever GPU is present.
// One thread per output pixel; coefficients come from the host (matrix and range of the stream).
// A slot of another size than the picture gets it scaled bilinearly in the same pass (resize).

#include "bilinear_taps.hpp"

// One 8-bit-scale sample of a plane: P016 keeps samples in the high bits of 16-bit words (/256
// gives the 8-bit scale). `col` counts samples (an NV12 chroma pair is two).
__device__ __forceinline__ float rs_sample(const unsigned char* plane, unsigned int pitch,
                                           int sixteen_bit, int row, int col) {
  const unsigned char* at = plane + static_cast<size_t>(row) * pitch;
  return sixteen_bit ? reinterpret_cast<const unsigned short*>(at)[col] * (1.0f / 256.0f)
                     : static_cast<float>(at[col]);
}

// Luma and chroma bilinearly at the output pixel's source position (bilinear_taps.hpp: swscale's
// SWS_BILINEAR mapping; chroma on its own half-size grid, centres aligned). Interpolating Y, Cb, Cr
// before the (linear) conversion equals interpolating the unclamped RGB, as swscale does.
__device__ void rs_scaled_yuv(const unsigned char* luma, const unsigned char* chroma,
                              unsigned int pitch, int sixteen_bit, int src_width, int src_height,
                              int x, int y, int width, int height, float* y8, float* u8,
                              float* v8) {
  const rs::BilinearTap tx = rs::bilinear_tap(x, src_width, width);
  const rs::BilinearTap ty = rs::bilinear_tap(y, src_height, height);
  const float top = rs::bilinear_mix(rs_sample(luma, pitch, sixteen_bit, ty.i0, tx.i0),
                                     rs_sample(luma, pitch, sixteen_bit, ty.i0, tx.i1), tx.w1);
  const float bottom = rs::bilinear_mix(rs_sample(luma, pitch, sixteen_bit, ty.i1, tx.i0),
                                        rs_sample(luma, pitch, sixteen_bit, ty.i1, tx.i1), tx.w1);
  *y8 = rs::bilinear_mix(top, bottom, ty.w1);
  const rs::BilinearTap cx = rs::bilinear_tap(x, (src_width + 1) / 2, width);
  const rs::BilinearTap cy = rs::bilinear_tap(y, (src_height + 1) / 2, height);
  float c[2];
  for (int k = 0; k < 2; ++k) {  // Cb, then Cr: interleaved pairs
    const float ctop =
        rs::bilinear_mix(rs_sample(chroma, pitch, sixteen_bit, cy.i0, 2 * cx.i0 + k),
                         rs_sample(chroma, pitch, sixteen_bit, cy.i0, 2 * cx.i1 + k), cx.w1);
    const float cbottom =
        rs::bilinear_mix(rs_sample(chroma, pitch, sixteen_bit, cy.i1, 2 * cx.i0 + k),
                         rs_sample(chroma, pitch, sixteen_bit, cy.i1, 2 * cx.i1 + k), cx.w1);
    c[k] = rs::bilinear_mix(ctop, cbottom, cy.w1);
  }
  *u8 = c[0];
  *v8 = c[1];
}

// `width` x `height` is the output (the slot); `src_width` x `src_height` the picture. Equal sizes
// run the unscaled reads below unchanged, so an unresized batch keeps its exact bytes. This kernel
// is reviewed, not run, on machines without a GPU: its index and weight arithmetic
// (bilinear_taps.hpp) is what the native tests check there.
extern "C" __global__ void rs_nv12_to_rgb(const unsigned char* luma, const unsigned char* chroma,
                                          unsigned int pitch, int src_width, int src_height,
                                          int width, int height, int sixteen_bit, float y_offset,
                                          float y_scale, float c_scale, float rv, float gu,
                                          float gv, float bu, int layout, int dtype, void* dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;

  float y8, u8, v8;
  if (src_width != width || src_height != height) {
    rs_scaled_yuv(luma, chroma, pitch, sixteen_bit, src_width, src_height, x, y, width, height, &y8,
                  &u8, &v8);
  } else {
    const unsigned char* luma_row = luma + static_cast<size_t>(y) * pitch;
    const unsigned char* chroma_row = chroma + static_cast<size_t>(y / 2) * pitch;
    const int cx = (x / 2) * 2;
    if (sixteen_bit) {
      // P016 keeps samples in the high bits of 16-bit words: /256 gives the 8-bit scale.
      y8 = reinterpret_cast<const unsigned short*>(luma_row)[x] * (1.0f / 256.0f);
      u8 = reinterpret_cast<const unsigned short*>(chroma_row)[cx] * (1.0f / 256.0f);
      v8 = reinterpret_cast<const unsigned short*>(chroma_row)[cx + 1] * (1.0f / 256.0f);
    } else {
      y8 = luma_row[x];
      u8 = chroma_row[cx];
      v8 = chroma_row[cx + 1];
    }
  }
  const float Y = (y8 - y_offset) * y_scale;
  const float cb = (u8 - 128.0f) * c_scale;
  const float cr = (v8 - 128.0f) * c_scale;
  const float rgb[3] = {Y + rv * cr, Y + gu * cb + gv * cr, Y + bu * cb};

  const size_t pixel = static_cast<size_t>(y) * width + x;
  const size_t plane = static_cast<size_t>(width) * height;
  for (int c = 0; c < 3; ++c) {
    const float v = fminf(fmaxf(rgb[c], 0.0f), 255.0f);
    const size_t at = layout == 0 ? pixel * 3 + c : c * plane + pixel;
    if (dtype == 0) {
      static_cast<unsigned char*>(dst)[at] = static_cast<unsigned char>(v + 0.5f);
    } else {
      static_cast<float*>(dst)[at] = v * (1.0f / 255.0f);
    }
  }
}

// uint8 RGB to float32 in [0, 1] (the loader's default output), one thread per value. A true
// division, as the CPU path does it, so both paths give the same floats (nvcc's default
// -prec-div=true rounds it correctly).
extern "C" __global__ void rs_u8_to_unit_f32(const unsigned char* src, float* dst,
                                             long long count) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) dst[i] = static_cast<float>(src[i]) / 255.0f;
}
