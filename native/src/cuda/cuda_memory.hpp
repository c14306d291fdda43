// Memory of one CUDA device, in its primary context (shared with PyTorch or any other user of the
// runtime API in the process). Events are CUevent objects; sync_event points at one (the Arrow C
// Device interface's convention for ARROW_DEVICE_CUDA); streams are non-blocking CUstreams.
// Thread-safe: every call pushes the primary context for its duration.
#pragma once

#include <memory>
#include <mutex>

#include "cuda/colour_kernel.hpp"
#include "cuda/cuda_driver.hpp"
#include "device/memory_resource.hpp"

namespace rs {

class CudaMemoryResource final : public MemoryResource {
 public:
  // Retains the device's primary context. Throws LibraryUnavailable without a driver and
  // InvalidArgument for a device that does not exist.
  explicit CudaMemoryResource(int device);
  ~CudaMemoryResource() override;

  int32_t device_type() const override;
  int64_t device_id() const override { return device_; }
  CUcontext context() const { return context_; }
  const CudaDriver& driver() const { return *driver_; }

  void* allocate(int64_t bytes) override;
  void deallocate(void* buffer, int64_t bytes) noexcept override;
  void copy_from_host(void* dst, const void* src, int64_t bytes, void* stream) override;
  void copy_to_host(void* dst, const void* src, int64_t bytes) override;
  void* create_stream() override;
  void destroy_stream(void* stream) noexcept override;
  void synchronize(void* stream) override;
  void copy_within(void* dst, const void* src, int64_t bytes, void* stream) override;
  void expand_to_unit_floats(float* dst, const uint8_t* src, int64_t count, void* stream) override;
  void* create_event() override;
  void destroy_event(void* event) noexcept override;
  void record_event(void* event, void* stream) override;
  void wait_event(void* event) override;

 private:
  const CudaDriver* driver_;
  int device_;
  CUdevice handle_ = 0;
  CUcontext context_ = nullptr;
  // The kernel module, loaded on first use (a pool that only holds buffers never needs it).
  std::once_flag kernel_once_;
  std::unique_ptr<ColourKernel> kernel_;
};

}  // namespace rs
