#include <array>
#include <cstdlib>
#include <cstring>
#include <string>

#include "arrow/abi.h"
#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "device/memory_resource.hpp"

namespace rs {

int32_t HostMemoryResource::device_type() const { return ARROW_DEVICE_CPU; }

void* HostMemoryResource::allocate(int64_t bytes) {
  sizes::check_buffer_bytes(bytes, "host buffer");
  // aligned_alloc requires a size that is a multiple of the alignment.
  const auto rounded = static_cast<size_t>(((bytes + 63) / 64) * 64);
  void* p = std::aligned_alloc(64, rounded);
  if (!p) throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes of host memory");
  return p;
}

void HostMemoryResource::deallocate(void* buffer, int64_t) noexcept { std::free(buffer); }

void HostMemoryResource::copy_from_host(void* dst, const void* src, int64_t bytes, void*) {
  std::memcpy(dst, src, static_cast<size_t>(bytes));
}

void HostMemoryResource::copy_to_host(void* dst, const void* src, int64_t bytes) {
  std::memcpy(dst, src, static_cast<size_t>(bytes));
}

void HostMemoryResource::copy_within(void* dst, const void* src, int64_t bytes, void*) {
  std::memcpy(dst, src, static_cast<size_t>(bytes));
}

void HostMemoryResource::expand_to_unit_floats(float* dst, const uint8_t* src, int64_t count,
                                               void*) {
  // A table instead of a division per value: the loop then vectorises as gathers at worst.
  static const auto unit = [] {
    std::array<float, 256> t{};
    for (int v = 0; v < 256; ++v) t[static_cast<size_t>(v)] = static_cast<float>(v) / 255.0f;
    return t;
  }();
  for (int64_t i = 0; i < count; ++i) dst[i] = unit[src[i]];
}

}  // namespace rs
