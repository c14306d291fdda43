// Stand-in for probe.cu when the core is built without nvcc.
#include "core/errors.hpp"
#include "robostream/robostream.h"

extern "C" int rs_cuda_compiled(void) { return 0; }

extern "C" int rs_cuda_device_count(void) {
  rs::set_last_error("CUDA unavailable: robostream was built without CUDA (no nvcc at build time)");
  return -1;
}
