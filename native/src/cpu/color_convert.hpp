// YUV -> RGB24 conversion with libyuv, written straight into a caller's frame slot.
#pragma once

#include <cstdint>

namespace rs {

struct YuvPlanes {
  const uint8_t* y;
  int y_stride;
  const uint8_t* u;
  int u_stride;
  const uint8_t* v;
  int v_stride;
  int width;
  int height;
  int chroma;  // RS_CHROMA_420 / 422 / 444
};

// Converts 8-bit planar YUV to R,G,B bytes in dst (HWC: packed rows of width*3 bytes; CHW: three
// width*height planes in R, G, B order). Throws InvalidArgument / Unsupported.
// Thread-safe: CHW uses a small thread-local strip buffer.
void convert_yuv8_to_rgb(const YuvPlanes& src, int matrix, bool full_range, uint8_t* dst,
                         int layout);

}  // namespace rs
