#include "cuda/cuda_driver.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <string>

#include "core/errors.hpp"

namespace rs {
namespace {

thread_local std::string loader_message;

}  // namespace

void ffnvcodec_log(const char* format, ...) {
  char buffer[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  loader_message = buffer;
  while (!loader_message.empty() && loader_message.back() == '\n') loader_message.pop_back();
}

namespace {

std::string describe(const CudaFunctions* cu, CUresult rc) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (cu && cu->cuGetErrorName) cu->cuGetErrorName(rc, &name);
  if (cu && cu->cuGetErrorString) cu->cuGetErrorString(rc, &text);
  std::string out = name ? name : ("CUresult " + std::to_string(static_cast<int>(rc)));
  if (text) out += std::string(" (") + text + ")";
  return out;
}

}  // namespace

// Loaded on first use, once: later calls see the same driver or the same reason.
const CudaDriver::Loaded& CudaDriver::loaded_driver() {
  static const Loaded loaded = [] {
    Loaded l{nullptr, {}, 0};
    l.driver = load(l.reason, l.version);
    return l;
  }();
  return loaded;
}

CudaDriver* CudaDriver::load(std::string& reason, int& version) {
  CudaFunctions* cu = nullptr;
  loader_message.clear();
  if (cuda_load_functions(&cu, nullptr) != 0) {
    reason =
        "CUDA unavailable: " +
        (loader_message.empty() ? std::string("libcuda.so.1 cannot be loaded") : loader_message) +
        " (no NVIDIA driver on this machine?)";
    return nullptr;
  }
  // Not in ffnvcodec's function table; taken from the library it opened. Needs no cuInit, so a
  // driver too old for this core, or one without a device, still reports its version.
  using GetVersion = CUresult (*)(int*);
  auto get_version = reinterpret_cast<GetVersion>(dlsym(cu->lib, "cuDriverGetVersion"));
  if (get_version == nullptr || get_version(&version) != CUDA_SUCCESS) version = 0;
  CUresult rc = cu->cuInit(0);
  if (rc != CUDA_SUCCESS) {
    reason = "CUDA unavailable: cuInit failed: " + describe(cu, rc);
    cuda_free_functions(&cu);
    return nullptr;
  }
  int count = 0;
  rc = cu->cuDeviceGetCount(&count);
  if (rc != CUDA_SUCCESS || count <= 0) {
    reason = rc != CUDA_SUCCESS ? "CUDA unavailable: cuDeviceGetCount failed: " + describe(cu, rc)
                                : "CUDA unavailable: no CUDA device found";
    cuda_free_functions(&cu);
    return nullptr;
  }
  auto* driver = new CudaDriver();
  driver->cu_ = cu;
  driver->device_count_ = count;
  driver->stream_wait_event_ =
      reinterpret_cast<StreamWaitEvent>(dlsym(cu->lib, "cuStreamWaitEvent"));
  loader_message.clear();
  if (cuvid_load_functions(&driver->cuvid_, nullptr) != 0) {
    driver->cuvid_ = nullptr;
    driver->nvdec_reason_ =
        "NVDEC unavailable: " +
        (loader_message.empty() ? std::string("libnvcuvid.so.1 cannot be loaded") : loader_message);
  }
  return driver;  // lives for the process: decoders may be closed during static destruction
}

const CudaDriver* CudaDriver::get() { return loaded_driver().driver; }

const std::string& CudaDriver::unavailable_reason() { return loaded_driver().reason; }

int CudaDriver::driver_version() { return loaded_driver().version; }

void CudaDriver::check(CUresult rc, const char* what) const {
  if (rc == CUDA_SUCCESS) return;
  const std::string message = std::string(what) + " failed: " + describe(cu_, rc);
  // ffnvcodec's enum names only a few codes; 2 is CUDA_ERROR_OUT_OF_MEMORY.
  if (static_cast<int>(rc) == 2) throw OutOfMemory(message);
  throw Error(RS_ERR_INTERNAL, message);
}

ScopedContext::ScopedContext(const CudaDriver& driver, CUcontext context) : driver_(driver) {
  driver_.check(driver_.cu().cuCtxPushCurrent(context), "cuCtxPushCurrent");
}

ScopedContext::~ScopedContext() {
  CUcontext ignored = nullptr;
  driver_.cu().cuCtxPopCurrent(&ignored);
}

}  // namespace rs
