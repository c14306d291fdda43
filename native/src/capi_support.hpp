// Handle conversions shared by the C API translation units (capi*.cpp).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "core/errors.hpp"

namespace rs::capi {

template <typename T>
T* from_handle(int64_t handle, const char* what) {
  if (handle == 0) throw InvalidArgument(std::string("null ") + what + " handle");
  return reinterpret_cast<T*>(static_cast<intptr_t>(handle));
}

template <typename T>
int64_t to_handle(T* object) {
  return static_cast<int64_t>(reinterpret_cast<intptr_t>(object));
}

inline void require_out(const void* out) {
  if (!out) throw InvalidArgument("null output pointer");
}

// Fills out[0..] with `values` in order: the C API returns records (picture info, counters) as
// int64 arrays whose field order robostream.h documents. Callers check `out` with require_out
// before anything has a side effect (taking a picture out of a queue).
inline void write_values(int64_t* out, std::initializer_list<int64_t> values) {
  for (int64_t v : values) *out++ = v;
}

}  // namespace rs::capi
