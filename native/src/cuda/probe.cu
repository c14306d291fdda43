// CUDA device probe, compiled only when nvcc is available. The CUDA runtime is linked statically,
// so the core has no NEEDED entry for libcudart or libcuda; the runtime loads the driver itself and
// reports "insufficient driver" (35) on machines without one instead of failing to load.
#include <cuda_runtime_api.h>

#include <string>

#include "core/errors.hpp"
#include "robostream/robostream.h"

extern "C" int rs_cuda_compiled(void) { return 1; }

extern "C" int rs_cuda_device_count(void) {
  int count = 0;
  cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) {
    rs::set_last_error(std::string("CUDA unavailable: ") + cudaGetErrorName(rc) + " (" +
                       cudaGetErrorString(rc) + ")");
    return -static_cast<int>(rc);
  }
  if (count == 0) {
    rs::set_last_error("CUDA unavailable: no CUDA device found");
    return -1;
  }
  rs::clear_last_error();
  return count;
}
