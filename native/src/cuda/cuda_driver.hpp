// The NVIDIA driver, loaded once per process at run time: libcuda.so.1 (driver API) and
// libnvcuvid.so.1 (NVDEC). Nothing is linked, so the core loads on machines without a driver and
// reports why CUDA is unavailable instead. Thread-safe: loaded under a static initialiser; the
// function tables are immutable afterwards.
#pragma once

#include <string>

#include "cuda/ffnvcodec.hpp"

namespace rs {

class CudaDriver {
 public:
  // The driver with cuInit done and at least one device, or nullptr (see unavailable_reason()).
  static const CudaDriver* get();
  // Why get() is nullptr; "" when it is not.
  static const std::string& unavailable_reason();
  // cuDriverGetVersion's value (1000 * major + 10 * minor), known whenever libcuda.so.1 loads,
  // even when cuInit fails or no device exists; 0 when it cannot be loaded.
  static int driver_version();

  const CudaFunctions& cu() const { return *cu_; }
  // NVDEC entry points, or nullptr when libnvcuvid.so.1 is missing (nvdec_unavailable_reason()).
  const CuvidFunctions* cuvid() const { return cuvid_; }
  const std::string& nvdec_unavailable_reason() const { return nvdec_reason_; }
  int device_count() const { return device_count_; }
  // cuStreamWaitEvent, which ffnvcodec's table lacks: taken from the library it opened. nullptr
  // when the driver does not export it.
  using StreamWaitEvent = CUresult (*)(CUstream, CUevent, unsigned int);
  StreamWaitEvent stream_wait_event() const { return stream_wait_event_; }

  // Throws (OutOfMemory for CUDA_ERROR_OUT_OF_MEMORY, else Internal) with `what` and the error's
  // name and description when rc is not CUDA_SUCCESS.
  void check(CUresult rc, const char* what) const;

 private:
  struct Loaded {
    CudaDriver* driver;
    std::string reason;
    int version;
  };
  CudaDriver() = default;
  static const Loaded& loaded_driver();
  static CudaDriver* load(std::string& reason, int& version);

  CudaFunctions* cu_ = nullptr;
  CuvidFunctions* cuvid_ = nullptr;
  StreamWaitEvent stream_wait_event_ = nullptr;
  std::string nvdec_reason_;
  int device_count_ = 0;
};

// Makes the device's primary context current on this thread for the scope (push/pop), so that
// decoders on several devices can share worker threads.
class ScopedContext {
 public:
  ScopedContext(const CudaDriver& driver, CUcontext context);
  ~ScopedContext();
  ScopedContext(const ScopedContext&) = delete;
  ScopedContext& operator=(const ScopedContext&) = delete;

 private:
  const CudaDriver& driver_;
};

}  // namespace rs
