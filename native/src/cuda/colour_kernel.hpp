// Host side of colour_kernels.cu: loads the embedded PTX into a context once and launches the
// NV12/P016 → RGB kernel (and the uint8 → float32 one) on a stream. Thread-safe (the module is
// loaded under a mutex; launches only read it).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "cuda/cuda_driver.hpp"

namespace rs {

struct ColourJob {
  CUdeviceptr surface;  // mapped NVDEC output: luma rows, then interleaved chroma rows
  unsigned int pitch;
  int surface_height;  // rows of luma in the surface (chroma starts at surface + pitch * this)
  int width;           // the picture
  int height;
  int out_width;  // the slot's frame: the picture's size, or a resize's (scaled bilinearly)
  int out_height;
  bool sixteen_bit;  // P016 instead of NV12
  int matrix;        // RS_MATRIX_*
  bool full_range;
  int layout;         // RS_LAYOUT_*
  int dtype;          // RS_DTYPE_*
  void* dst;          // device slot: 3 * out_width * out_height values
  int64_t dst_bytes;  // what the slot holds
};

// Throws InvalidArgument unless the kernel can run `job` within its memory: a known layout and
// dtype, bounded picture and output sizes, a surface pitch that holds a row, and a non-null slot
// of at least 3 * out_width * out_height values (a slot sized for the picture is refused when the
// output is larger). launch() checks every job with it.
void check_colour_job(const ColourJob& job);

class ColourKernel {
 public:
  // Whether the core carries the kernel's PTX (false when it was built without nvcc).
  static bool embedded();

  ColourKernel(const CudaDriver& driver, CUcontext context);
  ~ColourKernel();
  ColourKernel(const ColourKernel&) = delete;
  ColourKernel& operator=(const ColourKernel&) = delete;

  // Queues the conversion on `stream`; the caller's context must be current.
  void launch(const ColourJob& job, CUstream stream) const;
  // Queues dst[i] = src[i] / 255 for `count` values on `stream`; the caller's context must be
  // current.
  void launch_unit_floats(CUdeviceptr dst, CUdeviceptr src, int64_t count, CUstream stream) const;

 private:
  const CudaDriver& driver_;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  CUfunction unit_floats_ = nullptr;
};

// The colour coefficients the kernel takes, from the matrix and range (exposed for tests).
struct ColourCoefficients {
  float y_offset, y_scale, c_scale, rv, gu, gv, bu;
};
ColourCoefficients colour_coefficients(int matrix, bool full_range);

}  // namespace rs
