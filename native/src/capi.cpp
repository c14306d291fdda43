// The C API of robostream.h for CPU decoding (libyuv colour conversion, dav1d): the units that
// need the CPU codec libraries. Like every capi*.cpp it is a boundary where C++ exceptions become
// status codes; frame batches are capi_device.cpp's, whichever decoder fills them.
#include "capi_support.hpp"
#include "core/errors.hpp"
#include "core/live_objects.hpp"
#include "cpu/color_convert.hpp"
#include "cpu/dav1d_decoder.hpp"
#include "cpu/image_transforms.hpp"
#include "robostream/robostream.h"

using rs::capi::require_out;
using rs::capi::write_values;

namespace {

const rs::capi::DecoderCalls<rs::Dav1dDecoder> av1{"AV1 decoder"};

}  // namespace

extern "C" {

int rs_convert_yuv8(const uint8_t* y, int y_stride, const uint8_t* u, int u_stride,
                    const uint8_t* v, int v_stride, int width, int height, int chroma, int matrix,
                    int full_range, uint8_t* dst, int layout) {
  return rs::guarded([&] {
    rs::YuvPlanes planes{y, y_stride, u, u_stride, v, v_stride, width, height, chroma};
    rs::convert_yuv8_to_rgb(planes, matrix, full_range != 0, dst, layout);
  });
}

int64_t rs_transform_yuv8_bytes(int width, int height, int chroma_w_shift, int chroma_h_shift) {
  int64_t bytes = -1;
  int rc = rs::guarded([&] {
    bytes = rs::transforms::yuv8_bytes(
        rs::transforms::Yuv8Picture{width, height, chroma_w_shift, chroma_h_shift, false});
  });
  return rc == RS_OK ? bytes : -rc;
}

int rs_transform_yuv8(int64_t src, int64_t dst, int64_t scratch, int width, int height,
                      int chroma_w_shift, int chroma_h_shift, int full_range, const float* ops,
                      int n_ops) {
  return rs::guarded([&] {
    rs::transforms::transform_yuv8(
        rs::transforms::Yuv8Picture{width, height, chroma_w_shift, chroma_h_shift, full_range != 0},
        reinterpret_cast<const uint8_t*>(static_cast<intptr_t>(src)),
        reinterpret_cast<uint8_t*>(static_cast<intptr_t>(dst)),
        reinterpret_cast<uint8_t*>(static_cast<intptr_t>(scratch)),
        reinterpret_cast<const rs::transforms::Op*>(ops), n_ops);
  });
}

int rs_transform_rgb(int64_t frame, int64_t scratch, int width, int height, int layout,
                     int is_float, const float* ops, int n_ops) {
  return rs::guarded([&] {
    rs::transforms::transform_rgb(reinterpret_cast<void*>(static_cast<intptr_t>(frame)),
                                  reinterpret_cast<void*>(static_cast<intptr_t>(scratch)), width,
                                  height, layout, is_float != 0,
                                  reinterpret_cast<const rs::transforms::Op*>(ops), n_ops);
  });
}

int rs_av1_available(void) { return rs::Dav1dLibrary::get() != nullptr; }

const char* rs_av1_unavailable_reason(void) {
  return rs::Dav1dLibrary::unavailable_reason().c_str();
}

const char* rs_av1_library_version(void) {
  const rs::Dav1dLibrary* lib = rs::Dav1dLibrary::get();
  return lib ? lib->version() : "";
}

int rs_av1_open(int threads, int max_frame_delay, int64_t* handle_out) {
  return av1.open(handle_out, threads, max_frame_delay);
}

int rs_av1_send(int64_t handle, const uint8_t* data, int size, int64_t pts) {
  return av1.send(handle, data, size, pts);
}

int rs_av1_drain(int64_t handle) { return av1.drain(handle); }

int rs_av1_next_picture(int64_t handle, int64_t* out) {
  return av1.next_picture<rs::PictureInfo>(handle, out, [](const rs::PictureInfo& p, int64_t* o) {
    write_values(o, {p.pts, p.width, p.height, p.chroma, p.bit_depth, p.matrix, p.full_range});
  });
}

int rs_av1_convert_current(int64_t handle, int matrix, int full_range, uint8_t* dst, int layout) {
  return rs::guarded([&] { av1(handle).convert_current(matrix, full_range != 0, dst, layout); });
}

int rs_av1_current_planes(int64_t handle, int64_t* out) {
  return rs::guarded([&] {
    require_out(out);
    av1(handle).current_planes(out);
  });
}

int rs_av1_flush(int64_t handle) { return av1.flush(handle); }

void rs_av1_close(int64_t handle) { av1.close(handle); }

}  // extern "C"
