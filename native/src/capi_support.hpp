// Handle conversions and the decoder protocol shared by the C API translation units (capi*.cpp).
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

// The calls both decoders of the C API share (dav1d in capi.cpp, NVDEC in capi_device.cpp):
// open, send, drain, next picture, flush, close, each under the error contract. Their C entry
// points forward here, so the protocol is written once. Stateless apart from the handle name.
template <typename Decoder>
struct DecoderCalls {
  const char* what;  // names the handle in errors: "null AV1 decoder handle"

  Decoder& operator()(int64_t handle) const { return *from_handle<Decoder>(handle, what); }

  template <typename... Args>
  int open(int64_t* handle_out, Args... args) const {
    return guarded([&] {
      require_out(handle_out);
      handle_out[0] = to_handle(new Decoder(args...));
    });
  }

  int send(int64_t handle, const uint8_t* data, int size, int64_t pts) const {
    return guarded([&] { (*this)(handle).send(data, size, pts); });
  }

  int drain(int64_t handle) const {
    return guarded([&] { (*this)(handle).drain(); });
  }

  // Makes the next picture current: out[0] = 1 when there was one (else 0), and `fields`
  // writes the picture's description from out[1] on.
  template <typename Picture, typename Fields>
  int next_picture(int64_t handle, int64_t* out, Fields fields) const {
    return guarded([&] {
      require_out(out);  // before the picture leaves its queue
      Picture picture{};
      out[0] = (*this)(handle).next(picture) ? 1 : 0;
      fields(picture, out + 1);
    });
  }

  int flush(int64_t handle) const {
    return guarded([&] { (*this)(handle).flush(); });
  }

  void close(int64_t handle) const {
    if (handle != 0) delete reinterpret_cast<Decoder*>(static_cast<intptr_t>(handle));
  }
};

}  // namespace rs::capi
