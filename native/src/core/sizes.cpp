#include "core/sizes.hpp"

#include "core/errors.hpp"

namespace rs::sizes {

int64_t multiply(int64_t a, int64_t b, const std::string& what) {
  int64_t product = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &product) || product > kMaxBufferBytes) {
    throw InvalidArgument(what + " is too large (" + std::to_string(a) + " x " + std::to_string(b) +
                          "; at most " + std::to_string(kMaxBufferBytes) + ")");
  }
  return product;
}

void check_frame_size(const std::string& what, int height, int width) {
  if (height <= 0 || width <= 0 || height > kMaxFrameSide || width > kMaxFrameSide) {
    throw InvalidArgument(what + " has size " + std::to_string(width) + "x" +
                          std::to_string(height) + " (each side must be 1.." +
                          std::to_string(kMaxFrameSide) + ")");
  }
}

void check_buffer_bytes(int64_t bytes, const std::string& what) {
  if (bytes <= 0 || bytes > kMaxBufferBytes) {
    throw InvalidArgument(what + " of " + std::to_string(bytes) + " bytes (must be 1.." +
                          std::to_string(kMaxBufferBytes) + ")");
  }
}

}  // namespace rs::sizes
