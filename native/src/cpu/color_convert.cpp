#include "cpu/color_convert.hpp"

#include <libyuv/convert_argb.h>
#include <libyuv/planar_functions.h>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/sizes.hpp"

namespace rs {
namespace {

// libyuv's "RGB24" is B,G,R in memory. Swapping U and V and taking the mirrored "Yvu" constants
// yields R,G,B (FFmpeg's rgb24), which is how libyuv itself builds I420ToRAW.
const libyuv::YuvConstants* mirrored_constants(int matrix, bool full_range) {
  switch (matrix) {
    case RS_MATRIX_BT709:
      return full_range ? &libyuv::kYvuF709Constants : &libyuv::kYvuH709Constants;
    case RS_MATRIX_BT2020:
      return full_range ? &libyuv::kYvuV2020Constants : &libyuv::kYvu2020Constants;
    case RS_MATRIX_BT601:
      return full_range ? &libyuv::kYvuJPEGConstants : &libyuv::kYvuI601Constants;
    default:
      throw InvalidArgument("unknown colour matrix " + std::to_string(matrix));
  }
}

int chroma_row_shift(int chroma) { return chroma == RS_CHROMA_420 ? 1 : 0; }

// Converts rows [row0, row0 + rows) into packed R,G,B rows at dst with the given stride.
void convert_rows(const YuvPlanes& s, const libyuv::YuvConstants* k, int row0, int rows,
                  uint8_t* dst, int dst_stride) {
  const int crow = row0 >> chroma_row_shift(s.chroma);
  const uint8_t* y = s.y + static_cast<int64_t>(row0) * s.y_stride;
  const uint8_t* u = s.u + static_cast<int64_t>(crow) * s.u_stride;
  const uint8_t* v = s.v + static_cast<int64_t>(crow) * s.v_stride;
  int rc;
  switch (s.chroma) {
    case RS_CHROMA_420:
      rc = libyuv::I420ToRGB24Matrix(y, s.y_stride, v, s.v_stride, u, s.u_stride, dst, dst_stride,
                                     k, s.width, rows);
      break;
    case RS_CHROMA_422:
      rc = libyuv::I422ToRGB24Matrix(y, s.y_stride, v, s.v_stride, u, s.u_stride, dst, dst_stride,
                                     k, s.width, rows);
      break;
    case RS_CHROMA_444:
      rc = libyuv::I444ToRGB24Matrix(y, s.y_stride, v, s.v_stride, u, s.u_stride, dst, dst_stride,
                                     k, s.width, rows);
      break;
    default:
      throw Unsupported("unsupported chroma subsampling " + std::to_string(s.chroma));
  }
  if (rc != 0) throw InvalidArgument("libyuv rejected the conversion arguments");
}

}  // namespace

void convert_yuv8_to_rgb(const YuvPlanes& s, int matrix, bool full_range, uint8_t* dst,
                         int layout) {
  if (!s.y || !s.u || !s.v || !dst) throw InvalidArgument("null plane or destination pointer");
  // Bounded sides keep width * 3 and the plane offsets inside int and int64.
  sizes::check_frame_size("picture", s.height, s.width);
  const libyuv::YuvConstants* k = mirrored_constants(matrix, full_range);
  if (layout == RS_LAYOUT_HWC) {
    convert_rows(s, k, 0, s.height, dst, s.width * 3);
    return;
  }
  if (layout != RS_LAYOUT_CHW) throw InvalidArgument("unknown layout " + std::to_string(layout));
  // CHW: convert a strip of rows into a cache-resident packed buffer, then split it into the three
  // destination planes. A strip height that is even keeps 4:2:0 chroma rows aligned.
  constexpr int kStripRows = 16;
  thread_local std::vector<uint8_t> strip;
  strip.resize(static_cast<size_t>(s.width) * 3 * kStripRows);
  const int64_t plane = static_cast<int64_t>(s.width) * s.height;
  uint8_t* r = dst;
  uint8_t* g = dst + plane;
  uint8_t* b = dst + 2 * plane;
  for (int row = 0; row < s.height; row += kStripRows) {
    const int rows = row + kStripRows <= s.height ? kStripRows : s.height - row;
    convert_rows(s, k, row, rows, strip.data(), s.width * 3);
    const int64_t off = static_cast<int64_t>(row) * s.width;
    libyuv::SplitRGBPlane(strip.data(), s.width * 3, r + off, s.width, g + off, s.width, b + off,
                          s.width, s.width, rows);
  }
}

}  // namespace rs
