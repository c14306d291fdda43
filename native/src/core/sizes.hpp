// Bounds on the sizes callers hand the core (frame dimensions, rows, window lengths, buffer
// bytes) and checked arithmetic on them. Every size that reaches an allocation or a pointer
// offset is bounded here first, so no product of caller-supplied values can overflow (signed
// overflow is undefined behaviour, and a wrapped size allocates too little and writes past it).
#pragma once

#include <cstdint>
#include <string>

namespace rs::sizes {

// Largest frame side accepted anywhere in the core: twice 8K, beyond every codec's level limits.
constexpr int kMaxFrameSide = 16384;
// Largest number of frames per row of a window column (a time window of T frames).
constexpr int kMaxWindow = 4096;
// Largest number of rows of a batch.
constexpr int64_t kMaxRows = int64_t{1} << 24;
// Largest single buffer (1 TiB): far above any real batch, far below int64 overflow.
constexpr int64_t kMaxBufferBytes = int64_t{1} << 40;

// a * b for non-negative a and b; throws InvalidArgument naming `what` when the product
// overflows or exceeds kMaxBufferBytes.
int64_t multiply(int64_t a, int64_t b, const std::string& what);

// Throws InvalidArgument unless 1 <= height, width <= kMaxFrameSide.
void check_frame_size(const std::string& what, int height, int width);

// Throws InvalidArgument unless 1 <= bytes <= kMaxBufferBytes.
void check_buffer_bytes(int64_t bytes, const std::string& what);

}  // namespace rs::sizes
