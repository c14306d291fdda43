// The only include of ffnvcodec's dynamic-loading headers (Debian libffmpeg-nvenc-dev): CUDA
// driver and NVDEC types plus the loader of libcuda.so.1 / libnvcuvid.so.1. The loader's messages
// ("Cannot load libcuda.so.1") go to rs::ffnvcodec_log instead of stderr so they become the cause
// that Cuda.unavailabilityCause() reports. Never combine with the CUDA toolkit's <cuda.h> in one
// file: the two declare the same driver types differently.
#pragma once

#include <cstdarg>

namespace rs {
// Records a loader message for the calling thread (see CudaDriver::get).
void ffnvcodec_log(const char* format, ...);
}  // namespace rs

#define FFNV_LOG_FUNC(logctx, msg, ...) ::rs::ffnvcodec_log((msg), __VA_ARGS__)
#define FFNV_DEBUG_LOG_FUNC(logctx, msg, ...)

#include <ffnvcodec/dynlink_loader.h>
