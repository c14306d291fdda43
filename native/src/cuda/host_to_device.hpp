// Moving host bytes to a GPU the way a trainer's input pipeline does: through pinned
// (page-locked) host memory, which the copy engine reads directly, with one asynchronous copy on
// a stream of the transfer's own, waited for before the call returns. bench --device cuda uses it
// to move every batch to the training device, as the reference's consumer does with
// pin_memory + tensor.to(device, non_blocking=True).
// Ownership: the transfer owns its pinned buffer, its device buffer and its stream, and retains
// the device's primary context until it is destroyed. Not thread-safe: one per consumer thread.
#pragma once

#include <cstdint>

#include "core/live_objects.hpp"
#include "cuda/cuda_memory.hpp"

namespace rs {

class HostToDeviceTransfer {
 public:
  // Throws LibraryUnavailable without a usable driver, InvalidArgument for a missing device, and
  // LibraryUnavailable when the driver lacks the pinned-memory entry points.
  explicit HostToDeviceTransfer(int device);
  ~HostToDeviceTransfer();
  HostToDeviceTransfer(const HostToDeviceTransfer&) = delete;
  HostToDeviceTransfer& operator=(const HostToDeviceTransfer&) = delete;

  // Pinned host memory of at least `bytes` (> 0) for the caller to fill; valid until the next
  // call or destruction. Growing it does not keep the old contents.
  void* staging(int64_t bytes);
  // Copies the first `bytes` of the staging memory into the device buffer (grown as needed) and
  // waits until the copy is done on the device.
  void upload(int64_t bytes);
  // The first `bytes` of the device buffer, copied into host memory at `dst` (a check that the
  // upload moved the right bytes).
  void read_back(void* dst, int64_t bytes);

 private:
  using HostAlloc = CUresult (*)(void**, size_t, unsigned int);
  using HostFree = CUresult (*)(void*);

  void free_staging() noexcept;

  LiveObject live_;
  CudaMemoryResource memory_;
  HostAlloc host_alloc_ = nullptr;
  HostFree host_free_ = nullptr;
  void* stream_ = nullptr;
  void* staging_ = nullptr;
  int64_t staging_bytes_ = 0;
  void* device_ = nullptr;
  int64_t device_bytes_ = 0;
  int64_t uploaded_bytes_ = 0;
};

}  // namespace rs
