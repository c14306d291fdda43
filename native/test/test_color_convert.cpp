#include <cstdlib>
#include <vector>

#include "robostream/robostream.h"
#include "test_support.hpp"

namespace {

struct Picture {
  int w, h;
  std::vector<uint8_t> y, u, v;
  Picture(int width, int height, uint8_t yv, uint8_t uv, uint8_t vv)
      : w(width),
        h(height),
        y(width * height, yv),
        u((width / 2) * (height / 2), uv),
        v((width / 2) * (height / 2), vv) {}
  int convert(int matrix, int full, std::vector<uint8_t>& out, int layout) {
    out.assign(static_cast<size_t>(w) * h * 3, 0);
    return rs_convert_yuv8(y.data(), w, u.data(), w / 2, v.data(), w / 2, w, h, RS_CHROMA_420,
                           matrix, full, out.data(), layout);
  }
};

bool near(int a, int b, int tolerance) { return std::abs(a - b) <= tolerance; }

}  // namespace

RS_TEST(limited_range_white_and_black) {
  std::vector<uint8_t> rgb;
  Picture white(32, 16, 235, 128, 128);
  RS_CHECK_EQ(white.convert(RS_MATRIX_BT601, 0, rgb, RS_LAYOUT_HWC), RS_OK);
  for (uint8_t c : rgb) RS_CHECK(near(c, 255, 1));
  Picture black(32, 16, 16, 128, 128);
  RS_CHECK_EQ(black.convert(RS_MATRIX_BT709, 0, rgb, RS_LAYOUT_HWC), RS_OK);
  for (uint8_t c : rgb) RS_CHECK(near(c, 0, 1));
}

RS_TEST(red_has_rgb_byte_order_for_each_matrix) {
  // Pure red in BT.601 limited range: Y=81, U=90, V=240; BT.709: Y=63, U=102, V=240.
  std::vector<uint8_t> rgb;
  Picture red601(16, 16, 81, 90, 240);
  RS_CHECK_EQ(red601.convert(RS_MATRIX_BT601, 0, rgb, RS_LAYOUT_HWC), RS_OK);
  RS_CHECK(near(rgb[0], 255, 4) && near(rgb[1], 0, 4) && near(rgb[2], 0, 4));
  Picture red709(16, 16, 63, 102, 240);
  RS_CHECK_EQ(red709.convert(RS_MATRIX_BT709, 0, rgb, RS_LAYOUT_HWC), RS_OK);
  RS_CHECK(near(rgb[0], 255, 4) && near(rgb[1], 0, 4) && near(rgb[2], 0, 4));
  // The same YUV read with the wrong matrix gives a visibly different colour.
  RS_CHECK_EQ(red709.convert(RS_MATRIX_BT601, 0, rgb, RS_LAYOUT_HWC), RS_OK);
  RS_CHECK(!near(rgb[1], 0, 8) || !near(rgb[0], 255, 8));
}

RS_TEST(full_range_differs_from_limited) {
  std::vector<uint8_t> limited, full;
  Picture grey(16, 16, 200, 128, 128);
  RS_CHECK_EQ(grey.convert(RS_MATRIX_BT601, 0, limited, RS_LAYOUT_HWC), RS_OK);
  RS_CHECK_EQ(grey.convert(RS_MATRIX_BT601, 1, full, RS_LAYOUT_HWC), RS_OK);
  RS_CHECK(near(full[0], 200, 1));
  RS_CHECK(near(limited[0], 214, 2));  // (200-16)*255/219
}

RS_TEST(chw_is_planar_hwc) {
  const int w = 40, h = 38;  // height not a multiple of the strip height
  Picture p(w, h, 0, 0, 0);
  for (int i = 0; i < w * h; ++i) p.y[i] = static_cast<uint8_t>(16 + (i * 7) % 219);
  for (size_t i = 0; i < p.u.size(); ++i) {
    p.u[i] = static_cast<uint8_t>(16 + (i * 13) % 224);
    p.v[i] = static_cast<uint8_t>(16 + (i * 29) % 224);
  }
  std::vector<uint8_t> hwc, chw;
  RS_CHECK_EQ(p.convert(RS_MATRIX_BT709, 0, hwc, RS_LAYOUT_HWC), RS_OK);
  RS_CHECK_EQ(p.convert(RS_MATRIX_BT709, 0, chw, RS_LAYOUT_CHW), RS_OK);
  for (int i = 0; i < w * h; ++i) {
    for (int c = 0; c < 3; ++c) RS_CHECK_EQ(int(chw[c * w * h + i]), int(hwc[i * 3 + c]));
  }
}

RS_TEST(invalid_arguments_are_reported) {
  std::vector<uint8_t> rgb;
  Picture p(16, 16, 100, 128, 128);
  RS_CHECK_EQ(p.convert(42, 0, rgb, RS_LAYOUT_HWC), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK(std::string(rs_last_error()).find("matrix") != std::string::npos);
  RS_CHECK_EQ(p.convert(RS_MATRIX_BT601, 0, rgb, 7), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_convert_yuv8(nullptr, 16, nullptr, 8, nullptr, 8, 16, 16, RS_CHROMA_420,
                              RS_MATRIX_BT601, 0, rgb.data(), RS_LAYOUT_HWC),
              RS_ERR_INVALID_ARGUMENT);
}
