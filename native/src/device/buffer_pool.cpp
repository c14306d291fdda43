#include "device/buffer_pool.hpp"

#include "core/allocation_faults.hpp"
#include "core/errors.hpp"
#include "core/sizes.hpp"

namespace rs {

BufferPool::BufferPool(std::shared_ptr<MemoryResource> resource) : resource_(std::move(resource)) {
  if (!resource_) throw InvalidArgument("buffer pool without a memory resource");
}

BufferPool::~BufferPool() { trim(); }

void* BufferPool::acquire(int64_t bytes) {
  sizes::check_buffer_bytes(bytes, "pooled buffer");
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = idle_.find(bytes);
    if (it != idle_.end()) {
      void* buffer = it->second;
      outstanding_.emplace(buffer, bytes);
      idle_.erase(it);
      stats_.reuses++;
      stats_.pooled_bytes -= bytes;
      stats_.outstanding_bytes += bytes;
      return buffer;
    }
  }
  // Allocate outside the lock: device allocations can take milliseconds.
  allocation_fault_point("a pooled buffer");
  void* buffer = resource_->allocate(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    outstanding_.emplace(buffer, bytes);
  } catch (...) {
    resource_->deallocate(buffer, bytes);
    throw;
  }
  stats_.allocations++;
  stats_.outstanding_bytes += bytes;
  live_bytes().fetch_add(bytes, std::memory_order_relaxed);
  return buffer;
}

bool BufferPool::release(void* buffer, int64_t bytes) noexcept {
  if (!buffer) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = outstanding_.find(buffer);
  if (it == outstanding_.end() || it->second != bytes) return false;
  outstanding_.erase(it);
  try {
    idle_.emplace(bytes, buffer);
  } catch (...) {
    // No room to keep it idle: give it back to the resource instead.
    resource_->deallocate(buffer, bytes);
    live_bytes().fetch_sub(bytes, std::memory_order_relaxed);
    stats_.outstanding_bytes -= bytes;
    return true;
  }
  stats_.outstanding_bytes -= bytes;
  stats_.pooled_bytes += bytes;
  return true;
}

void* BufferPool::acquire_event() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_events_.empty()) {
      void* event = idle_events_.back();
      idle_events_.pop_back();
      stats_.outstanding_events++;
      return event;
    }
  }
  void* event = resource_->create_event();
  if (event) {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.outstanding_events++;
  }
  return event;
}

void BufferPool::release_event(void* event) noexcept {
  if (!event) return;
  std::lock_guard<std::mutex> lock(mutex_);
  idle_events_.push_back(event);
  stats_.outstanding_events--;
}

PoolStats BufferPool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void BufferPool::trim() noexcept {
  std::multimap<int64_t, void*> buffers;
  std::vector<void*> events;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    buffers.swap(idle_);
    events.swap(idle_events_);
    stats_.pooled_bytes = 0;
  }
  for (auto& [bytes, buffer] : buffers) {
    resource_->deallocate(buffer, bytes);
    live_bytes().fetch_sub(bytes, std::memory_order_relaxed);
  }
  for (void* event : events) resource_->destroy_event(event);
}

}  // namespace rs
