// A pool of batch buffers and completion events on one MemoryResource, so that steady-state batch
// assembly never allocates device memory (no per-frame or per-batch cudaMalloc). Buffers are
// recycled by exact size (batches of one configuration all have the same sizes); events are
// recycled as well. Exported batches hold the pool through a shared_ptr, so it lives until the
// last consumer released its array. Thread-safe (one mutex; acquire/release are a few list ops).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/live_objects.hpp"
#include "device/memory_resource.hpp"

namespace rs {

struct PoolStats {
  int64_t allocations;        // buffers the resource allocated
  int64_t reuses;             // acquisitions served from the pool
  int64_t outstanding_bytes;  // bytes handed out and not yet returned
  int64_t pooled_bytes;       // bytes idle in the pool
  int64_t outstanding_events;
};

class BufferPool {
 public:
  explicit BufferPool(std::shared_ptr<MemoryResource> resource);
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  MemoryResource& resource() const { return *resource_; }

  void* acquire(int64_t bytes);
  // Takes back a buffer of acquire(bytes). False (and nothing changes) for anything else: a
  // buffer this pool did not hand out, one already returned, or a wrong size; so a buffer can
  // never sit in the pool twice and be handed to two owners.
  bool release(void* buffer, int64_t bytes) noexcept;
  // nullptr on resources without events (the host).
  void* acquire_event();
  void release_event(void* event) noexcept;

  PoolStats stats() const;
  // Frees every idle buffer and event (outstanding ones come back later and stay pooled).
  void trim() noexcept;

 private:
  LiveObject live_;
  std::shared_ptr<MemoryResource> resource_;
  mutable std::mutex mutex_;
  std::multimap<int64_t, void*> idle_;              // size → buffer
  std::unordered_map<void*, int64_t> outstanding_;  // buffer → size, handed out
  std::vector<void*> idle_events_;
  PoolStats stats_{};
};

}  // namespace rs
