// Process-wide counters of live native objects and batch bytes. Tests read them to prove that
// every decoder, batch and exported Arrow array was released (zero after close).
#pragma once

#include <atomic>
#include <cstdint>

namespace rs {

std::atomic<int64_t>& live_objects();
std::atomic<int64_t>& live_bytes();

// RAII membership in the live-object count; embed one in each native resource.
class LiveObject {
 public:
  LiveObject() noexcept { live_objects().fetch_add(1, std::memory_order_relaxed); }
  LiveObject(const LiveObject&) noexcept : LiveObject() {}
  LiveObject& operator=(const LiveObject&) noexcept { return *this; }
  ~LiveObject() { live_objects().fetch_sub(1, std::memory_order_relaxed); }
};

}  // namespace rs
