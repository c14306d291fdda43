#include "core/live_objects.hpp"

namespace rs {

std::atomic<int64_t>& live_objects() {
  static std::atomic<int64_t> count{0};
  return count;
}

std::atomic<int64_t>& live_bytes() {
  static std::atomic<int64_t> bytes{0};
  return bytes;
}

}  // namespace rs
