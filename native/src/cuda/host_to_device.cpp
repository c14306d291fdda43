#include "cuda/host_to_device.hpp"

#include <dlfcn.h>

#include <string>

#include "core/errors.hpp"

namespace rs {

HostToDeviceTransfer::HostToDeviceTransfer(int device) : memory_(device) {
  // Not in ffnvcodec's function table: taken from the driver library it opened. Both have been
  // in libcuda since CUDA 2.2 under these unversioned names.
  void* lib = memory_.driver().cu().lib;
  host_alloc_ = reinterpret_cast<HostAlloc>(dlsym(lib, "cuMemHostAlloc"));
  host_free_ = reinterpret_cast<HostFree>(dlsym(lib, "cuMemFreeHost"));
  if (!host_alloc_ || !host_free_) {
    throw LibraryUnavailable("the CUDA driver library has no cuMemHostAlloc/cuMemFreeHost");
  }
  stream_ = memory_.create_stream();
}

HostToDeviceTransfer::~HostToDeviceTransfer() {
  // Every upload was waited for: nothing in flight reads these buffers.
  if (device_) memory_.deallocate(device_, device_bytes_);
  free_staging();
  memory_.destroy_stream(stream_);
}

void HostToDeviceTransfer::free_staging() noexcept {
  if (!staging_) return;
  if (memory_.driver().cu().cuCtxPushCurrent(memory_.context()) == CUDA_SUCCESS) {
    host_free_(staging_);
    CUcontext ignored = nullptr;
    memory_.driver().cu().cuCtxPopCurrent(&ignored);
  }
  staging_ = nullptr;
  staging_bytes_ = 0;
}

void* HostToDeviceTransfer::staging(int64_t bytes) {
  if (bytes <= 0) throw InvalidArgument("staging of " + std::to_string(bytes) + " bytes");
  if (bytes <= staging_bytes_) return staging_;
  free_staging();
  ScopedContext scope(memory_.driver(), memory_.context());
  void* p = nullptr;
  memory_.driver().check(host_alloc_(&p, static_cast<size_t>(bytes), 0),
                         ("cuMemHostAlloc of " + std::to_string(bytes) + " bytes").c_str());
  staging_ = p;
  staging_bytes_ = bytes;
  return staging_;
}

void HostToDeviceTransfer::upload(int64_t bytes) {
  if (bytes <= 0 || bytes > staging_bytes_) {
    throw InvalidArgument("upload of " + std::to_string(bytes) + " bytes from " +
                          std::to_string(staging_bytes_) + " bytes of staging memory");
  }
  if (bytes > device_bytes_) {
    if (device_) memory_.deallocate(device_, device_bytes_);
    device_ = nullptr;
    device_bytes_ = 0;
    device_ = memory_.allocate(bytes);
    device_bytes_ = bytes;
  }
  memory_.copy_from_host(device_, staging_, bytes, stream_);
  memory_.synchronize(stream_);
  uploaded_bytes_ = bytes;
}

void HostToDeviceTransfer::read_back(void* dst, int64_t bytes) {
  if (!dst) throw InvalidArgument("null buffer");
  if (bytes <= 0 || bytes > uploaded_bytes_) {
    throw InvalidArgument("read back of " + std::to_string(bytes) + " bytes after an upload of " +
                          std::to_string(uploaded_bytes_));
  }
  memory_.copy_to_host(dst, device_, bytes);
}

}  // namespace rs
