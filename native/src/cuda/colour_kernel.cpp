#include "cuda/colour_kernel.hpp"

#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "robostream/robostream.h"

// Generated from colour_kernels.cu at build time ("" when nvcc was missing).
extern const char rs_colour_kernels_ptx[];

namespace rs {

bool ColourKernel::embedded() { return rs_colour_kernels_ptx[0] != '\0'; }

ColourCoefficients colour_coefficients(int matrix, bool full_range) {
  float kr, kb;
  switch (matrix) {
    case RS_MATRIX_BT709:
      kr = 0.2126f;
      kb = 0.0722f;
      break;
    case RS_MATRIX_BT2020:
      kr = 0.2627f;
      kb = 0.0593f;
      break;
    default:
      kr = 0.299f;
      kb = 0.114f;
      break;  // BT.601, also for unspecified SD content
  }
  const float kg = 1.0f - kr - kb;
  ColourCoefficients c;
  c.y_offset = full_range ? 0.0f : 16.0f;
  c.y_scale = full_range ? 1.0f : 255.0f / 219.0f;
  c.c_scale = full_range ? 1.0f : 255.0f / 224.0f;
  c.rv = 2.0f * (1.0f - kr);
  c.bu = 2.0f * (1.0f - kb);
  c.gu = -2.0f * kb * (1.0f - kb) / kg;
  c.gv = -2.0f * kr * (1.0f - kr) / kg;
  return c;
}

void check_colour_job(const ColourJob& job) {
  if (job.layout != RS_LAYOUT_HWC && job.layout != RS_LAYOUT_CHW) {
    throw InvalidArgument("unknown layout " + std::to_string(job.layout));
  }
  if (job.dtype != RS_DTYPE_UINT8 && job.dtype != RS_DTYPE_FLOAT32) {
    throw InvalidArgument("unknown frame dtype " + std::to_string(job.dtype));
  }
  sizes::check_frame_size("NVDEC picture", job.height, job.width);
  sizes::check_frame_size("colour kernel output", job.out_height, job.out_width);
  const int64_t row_bytes = int64_t{job.width} * (job.sixteen_bit ? 2 : 1);
  if (job.pitch < row_bytes || job.surface_height < job.height) {
    throw InvalidArgument("NVDEC surface of pitch " + std::to_string(job.pitch) + " and " +
                          std::to_string(job.surface_height) + " rows cannot hold a " +
                          std::to_string(job.width) + "x" + std::to_string(job.height) +
                          " picture");
  }
  if (!job.dst) throw InvalidArgument("null device slot");
  const int64_t value_bytes = job.dtype == RS_DTYPE_UINT8 ? 1 : 4;
  const int64_t needed = int64_t{3} * job.out_width * job.out_height * value_bytes;
  if (job.dst_bytes < needed) {
    throw InvalidArgument("a " + std::to_string(job.out_width) + "x" +
                          std::to_string(job.out_height) + " frame needs " +
                          std::to_string(needed) + " bytes; the slot holds " +
                          std::to_string(job.dst_bytes));
  }
}

ColourKernel::ColourKernel(const CudaDriver& driver, CUcontext context) : driver_(driver) {
  if (!embedded()) {
    throw LibraryUnavailable("robostream was built without nvcc: no GPU colour kernel");
  }
  ScopedContext scope(driver_, context);
  driver_.check(driver_.cu().cuModuleLoadData(&module_, rs_colour_kernels_ptx),
                "cuModuleLoadData (colour kernel PTX)");
  for (auto [function, name] :
       {std::pair{&function_, "rs_nv12_to_rgb"}, std::pair{&unit_floats_, "rs_u8_to_unit_f32"}}) {
    CUresult rc = driver_.cu().cuModuleGetFunction(function, module_, name);
    if (rc != CUDA_SUCCESS) {
      driver_.cu().cuModuleUnload(module_);
      module_ = nullptr;
      driver_.check(rc, (std::string("cuModuleGetFunction(") + name + ")").c_str());
    }
  }
}

ColourKernel::~ColourKernel() {
  if (module_) driver_.cu().cuModuleUnload(module_);
}

void ColourKernel::launch(const ColourJob& job, CUstream stream) const {
  check_colour_job(job);
  const ColourCoefficients c = colour_coefficients(job.matrix, job.full_range);
  CUdeviceptr luma = job.surface;
  CUdeviceptr chroma = job.surface + static_cast<CUdeviceptr>(job.pitch) * job.surface_height;
  unsigned int pitch = job.pitch;
  int src_width = job.width, src_height = job.height;
  int width = job.out_width, height = job.out_height, sixteen = job.sixteen_bit ? 1 : 0;
  int layout = job.layout, dtype = job.dtype;
  float y_offset = c.y_offset, y_scale = c.y_scale, c_scale = c.c_scale;
  float rv = c.rv, gu = c.gu, gv = c.gv, bu = c.bu;
  CUdeviceptr dst = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(job.dst));
  void* args[] = {&luma,   &chroma,  &pitch,    &src_width, &src_height, &width,
                  &height, &sixteen, &y_offset, &y_scale,   &c_scale,    &rv,
                  &gu,     &gv,      &bu,       &layout,    &dtype,      &dst};
  const unsigned int block_x = 32, block_y = 8;
  const unsigned int grid_x = (static_cast<unsigned int>(width) + block_x - 1) / block_x;
  const unsigned int grid_y = (static_cast<unsigned int>(height) + block_y - 1) / block_y;
  driver_.check(driver_.cu().cuLaunchKernel(function_, grid_x, grid_y, 1, block_x, block_y, 1, 0,
                                            stream, args, nullptr),
                "cuLaunchKernel(rs_nv12_to_rgb)");
}

void ColourKernel::launch_unit_floats(CUdeviceptr dst, CUdeviceptr src, int64_t count,
                                      CUstream stream) const {
  if (count <= 0) return;
  long long n = count;
  void* args[] = {&src, &dst, &n};
  const unsigned int block = 256;
  const auto grid = static_cast<unsigned int>((count + block - 1) / block);
  driver_.check(
      driver_.cu().cuLaunchKernel(unit_floats_, grid, 1, 1, block, 1, 1, 0, stream, args, nullptr),
      "cuLaunchKernel(rs_u8_to_unit_f32)");
}

}  // namespace rs
