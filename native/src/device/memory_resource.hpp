// Where batch buffers live: host memory (device_type CPU) or one CUDA device's memory. A resource
// allocates and frees raw buffers, moves bytes between the host and itself, and makes the
// completion events that an exported ArrowDeviceArray carries as sync_event.
// Thread-safe: implementations may be called from every worker thread at once.
#pragma once

#include <cstdint>

namespace rs {

class MemoryResource {
 public:
  virtual ~MemoryResource() = default;

  // ARROW_DEVICE_CPU or ARROW_DEVICE_CUDA, and the device ordinal (0 for the host).
  virtual int32_t device_type() const = 0;
  virtual int64_t device_id() const = 0;

  // A buffer of `bytes` (> 0), 64-byte aligned at least. Throws OutOfMemory.
  virtual void* allocate(int64_t bytes) = 0;
  virtual void deallocate(void* buffer, int64_t bytes) noexcept = 0;

  // Host memory into this resource's memory, queued on `stream` (see below); the source may be
  // reused as soon as this returns (pageable memory is staged by the driver before it returns).
  virtual void copy_from_host(void* dst, const void* src, int64_t bytes, void* stream) = 0;
  // This resource's memory into host memory, done when this returns.
  virtual void copy_to_host(void* dst, const void* src, int64_t bytes) = 0;

  // Work queues of this resource. A stream orders the asynchronous operations below; nullptr is
  // the default stream. The host has no streams: its operations complete before they return.
  virtual void* create_stream() = 0;
  virtual void destroy_stream(void* stream) noexcept = 0;
  // Waits until everything queued on `stream` is done.
  virtual void synchronize(void* stream) = 0;

  // Copies `bytes` between two buffers of this resource, queued on `stream`. The loader moves
  // decoded frames from where they wait (the shuffle buffer) into a batch's slots with it.
  virtual void copy_within(void* dst, const void* src, int64_t bytes, void* stream) = 0;
  // dst[i] = src[i] / 255 for `count` values (RGB uint8 to float32 in [0, 1]), queued on `stream`.
  virtual void expand_to_unit_floats(float* dst, const uint8_t* src, int64_t count,
                                     void* stream) = 0;

  // A completion event, as the Arrow C Device interface defines sync_event for this device type
  // (for CUDA a pointer to a CUevent), or nullptr where writes complete synchronously (the host).
  virtual void* create_event() = 0;
  virtual void destroy_event(void* event) noexcept = 0;
  // Marks in `stream` (nullptr: the default stream) the point at which a batch is complete.
  virtual void record_event(void* event, void* stream) = 0;
  // Waits until the work before `event` is done (no-op for nullptr).
  virtual void wait_event(void* event) = 0;
};

// Host memory (aligned_alloc). Events are nullptr: host writes are complete when they return.
class HostMemoryResource final : public MemoryResource {
 public:
  int32_t device_type() const override;
  int64_t device_id() const override { return 0; }
  void* allocate(int64_t bytes) override;
  void deallocate(void* buffer, int64_t bytes) noexcept override;
  void copy_from_host(void* dst, const void* src, int64_t bytes, void* stream) override;
  void copy_to_host(void* dst, const void* src, int64_t bytes) override;
  void* create_stream() override { return nullptr; }
  void destroy_stream(void*) noexcept override {}
  void synchronize(void*) override {}
  void copy_within(void* dst, const void* src, int64_t bytes, void* stream) override;
  void expand_to_unit_floats(float* dst, const uint8_t* src, int64_t count, void* stream) override;
  void* create_event() override { return nullptr; }
  void destroy_event(void*) noexcept override {}
  void record_event(void*, void*) override {}
  void wait_event(void*) override {}
};

}  // namespace rs
