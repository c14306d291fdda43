// The built-in image transforms: what each operation does on both paths (packed YUV before
// conversion, RGB after), that the two paths agree, and that bad parameters are refused.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "robostream/robostream.h"
#include "test_support.hpp"

namespace {

// A packed yuv420p picture (Y, then U and V at half size), as the loader holds one.
struct Packed {
  int w, h;
  std::vector<uint8_t> bytes;
  Packed(int width, int height, uint8_t y, uint8_t u, uint8_t v)
      : w(width), h(height), bytes(static_cast<size_t>(width) * height * 3 / 2) {
    std::fill(bytes.begin(), bytes.begin() + w * h, y);
    std::fill(bytes.begin() + w * h, bytes.begin() + w * h * 5 / 4, u);
    std::fill(bytes.begin() + w * h * 5 / 4, bytes.end(), v);
  }
  uint8_t* y() { return bytes.data(); }
  uint8_t* u() { return bytes.data() + w * h; }
  uint8_t* v() { return bytes.data() + w * h * 5 / 4; }
  // A textured picture: every value different enough that a wrong warp or filter shows.
  static Packed textured(int width, int height) {
    Packed p(width, height, 0, 0, 0);
    for (int i = 0; i < width * height; i++) p.bytes[i] = static_cast<uint8_t>(40 + (i * 37) % 170);
    for (int i = width * height; i < static_cast<int>(p.bytes.size()); i++) {
      p.bytes[i] = static_cast<uint8_t>(90 + (i * 53) % 80);
    }
    return p;
  }
  Packed transformed(const std::vector<float>& ops, int full_range = 0) const {
    Packed out(w, h, 0, 0, 0);
    std::vector<uint8_t> scratch(bytes.size() + RS_TF_SCRATCH_PADDING);
    int64_t src = reinterpret_cast<int64_t>(bytes.data());
    int rc = rs_transform_yuv8(src, reinterpret_cast<int64_t>(out.bytes.data()),
                               reinterpret_cast<int64_t>(scratch.data()), w, h, 1, 1, full_range,
                               ops.data(), static_cast<int>(ops.size() / RS_TF_OP_FLOATS));
    if (rc != RS_OK) throw rstest::Failure{std::string("transform failed: ") + rs_last_error()};
    return out;
  }
  std::vector<uint8_t> rgb(int layout) {
    std::vector<uint8_t> out(static_cast<size_t>(w) * h * 3);
    int rc = rs_convert_yuv8(y(), w, u(), w / 2, v(), w / 2, w, h, RS_CHROMA_420, RS_MATRIX_BT601,
                             0, out.data(), layout);
    if (rc != RS_OK) throw rstest::Failure{"conversion failed"};
    return out;
  }
};

int rgb_transform(std::vector<uint8_t>& frame, int w, int h, int layout,
                  const std::vector<float>& ops) {
  std::vector<uint8_t> scratch(2 * frame.size() + RS_TF_SCRATCH_PADDING);
  return rs_transform_rgb(reinterpret_cast<int64_t>(frame.data()),
                          reinterpret_cast<int64_t>(scratch.data()), w, h, layout, 0, ops.data(),
                          static_cast<int>(ops.size() / RS_TF_OP_FLOATS));
}

double mean_abs_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); i++) sum += std::abs(int(a[i]) - int(b[i]));
  return sum / a.size();
}

}  // namespace

RS_TEST(yuv_colour_operations_map_luma_and_chroma) {
  Packed grey(16, 8, 116, 168, 98);
  // Brightness 1.2: luma about black (16), chroma scaled.
  Packed b = grey.transformed({RS_TF_BRIGHTNESS, 1.2f, 0, 0});
  RS_CHECK_EQ(int(b.y()[5]), 136);
  RS_CHECK_EQ(int(b.u()[3]), 128 + 48);
  RS_CHECK_EQ(int(b.v()[3]), 128 - 36);
  // Full range: black is 0.
  RS_CHECK_EQ(int(grey.transformed({RS_TF_BRIGHTNESS, 0.5f, 0, 0}, 1).y()[0]), 58);
  // Saturation 0: grey, luma kept.
  Packed s = grey.transformed({RS_TF_SATURATION, 0.0f, 0, 0});
  RS_CHECK_EQ(int(s.y()[0]), 116);
  RS_CHECK_EQ(int(s.u()[0]), 128);
  RS_CHECK_EQ(int(s.v()[0]), 128);
  // Hue a quarter turn: (Cb, Cr) = (40, -30) -> (30, 40).
  Packed hq = grey.transformed({RS_TF_HUE, 0.25f, 0, 0});
  RS_CHECK_EQ(int(hq.u()[0]), 128 + 30);
  RS_CHECK_EQ(int(hq.v()[0]), 128 + 40);
  // Contrast 0: every luma the frame's mean.
  Packed half(16, 8, 50, 128, 128);
  std::fill(half.y() + 64, half.y() + 128, 150);
  Packed c = half.transformed({RS_TF_CONTRAST, 0.0f, 0, 0});
  for (int i = 0; i < 128; i++) RS_CHECK_EQ(int(c.y()[i]), 100);
  // Two operations in a row are one map: brightness then saturation 0.
  Packed bs = grey.transformed({RS_TF_BRIGHTNESS, 1.2f, 0, 0, RS_TF_SATURATION, 0.0f, 0, 0});
  RS_CHECK_EQ(int(bs.y()[1]), 136);
  RS_CHECK_EQ(int(bs.u()[1]), 128);
  // No operation: a copy.
  Packed t = Packed::textured(20, 10);
  RS_CHECK(t.transformed({}).bytes == t.bytes);
}

RS_TEST(sharpness_blends_luma_with_its_smoothing_and_keeps_borders) {
  Packed p(8, 6, 100, 128, 128);
  p.y()[2 * 8 + 3] = 200;  // one bright pixel
  RS_CHECK(p.transformed({RS_TF_SHARPNESS, 1.0f, 0, 0}).bytes == p.bytes);
  Packed blurred = p.transformed({RS_TF_SHARPNESS, 0.0f, 0, 0});
  // (8 x 100 + 5 x 200) / 13 = 138.5; a neighbour: (7 x 100 + 200 + 5 x 100) / 13 = 107.7
  RS_CHECK(std::abs(int(blurred.y()[2 * 8 + 3]) - 138) <= 1);
  RS_CHECK_EQ(int(blurred.y()[2 * 8 + 4]), 108);
  Packed sharper = p.transformed({RS_TF_SHARPNESS, 1.5f, 0, 0});
  RS_CHECK(sharper.y()[2 * 8 + 3] > 200);  // 200 + 0.5 x (200 - 138)
  RS_CHECK(sharper.y()[2 * 8 + 4] < 100);
  Packed edge(8, 6, 100, 128, 128);
  edge.y()[0] = 250;  // a corner pixel is a border pixel: kept
  RS_CHECK_EQ(int(edge.transformed({RS_TF_SHARPNESS, 0.0f, 0, 0}).y()[0]), 250);
  RS_CHECK(p.transformed({RS_TF_SHARPNESS, 0.0f, 0, 0}).u()[0] == 128);  // luma only
}

RS_TEST(affine_moves_rotates_and_fills_black) {
  Packed p(16, 8, 60, 128, 128);
  p.y()[3 * 16 + 2] = 220;
  // A translation of 0.25 of the width: the pixel moves 4 to the right; the left columns fill.
  Packed moved = p.transformed({RS_TF_AFFINE, 0.0f, 0.25f, 0.0f});
  RS_CHECK_EQ(int(moved.y()[3 * 16 + 6]), 220);
  RS_CHECK_EQ(int(moved.y()[3 * 16 + 5]), 60);
  RS_CHECK_EQ(int(moved.y()[3 * 16 + 2]), 16);  // nothing maps there: black
  RS_CHECK_EQ(int(moved.y()[0]), 16);           // limited-range black
  RS_CHECK_EQ(int(moved.u()[0]), 128);
  RS_CHECK_EQ(int(p.transformed({RS_TF_AFFINE, 0.0f, 0.25f, 0.0f}, 1).y()[0]), 0);
  // 180 degrees about the centre: (x, y) -> (w - 1 - x, h - 1 - y).
  Packed t = Packed::textured(16, 8);
  Packed turned = t.transformed({RS_TF_AFFINE, 180.0f, 0, 0});
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 16; x++)
      RS_CHECK_EQ(int(turned.y()[y * 16 + x]), int(t.y()[(7 - y) * 16 + 15 - x]));
  // 90 degrees counter-clockwise of a square: the top row becomes the left column, bottom up.
  Packed sq = Packed::textured(8, 8);
  Packed ccw = sq.transformed({RS_TF_AFFINE, 90.0f, 0, 0});
  for (int x = 0; x < 8; x++) RS_CHECK_EQ(int(ccw.y()[(7 - x) * 8 + 0]), int(sq.y()[x]));
  // 0 degrees and no translation: unchanged.
  RS_CHECK(t.transformed({RS_TF_AFFINE, 0.0f, 0.0f, 0.0f}).bytes == t.bytes);
}

RS_TEST(rgb_path_agrees_with_the_yuv_path_for_colour) {
  Packed t = Packed::textured(32, 16);
  const std::vector<std::vector<float>> cases = {
      {RS_TF_BRIGHTNESS, 1.15f, 0, 0},
      {RS_TF_CONTRAST, 0.8f, 0, 0},
      {RS_TF_SATURATION, 1.4f, 0, 0},
      {RS_TF_HUE, 0.05f, 0, 0},
      {RS_TF_HUE, -0.05f, 0, 0, RS_TF_CONTRAST, 1.2f, 0, 0, RS_TF_SATURATION, 0.6f, 0, 0},
  };
  for (const auto& ops : cases) {
    std::vector<uint8_t> before = t.rgb(RS_LAYOUT_CHW);
    std::vector<uint8_t> via_yuv = t.transformed(ops).rgb(RS_LAYOUT_CHW);
    std::vector<uint8_t> via_rgb = before;
    RS_CHECK_EQ(rgb_transform(via_rgb, 32, 16, RS_LAYOUT_CHW, ops), RS_OK);
    RS_CHECK(mean_abs_difference(via_rgb, before) > 2);  // the operation did something
    double d = mean_abs_difference(via_rgb, via_yuv);
    if (d > 1.5) {
      throw rstest::Failure{"RGB and YUV paths differ by " + std::to_string(d) + " on average"};
    }
  }
}

RS_TEST(rgb_path_layouts_and_float_frames_agree) {
  Packed t = Packed::textured(24, 12);
  std::vector<uint8_t> chw = t.rgb(RS_LAYOUT_CHW);
  std::vector<uint8_t> hwc = t.rgb(RS_LAYOUT_HWC);
  std::vector<float> ops = {RS_TF_CONTRAST, 1.3f, 0,    0,      RS_TF_SHARPNESS, 1.5f, 0, 0,
                            RS_TF_AFFINE,   7.0f, 0.1f, -0.05f, RS_TF_HUE,       0.1f, 0, 0};
  std::vector<float> as_float(chw.size());
  for (size_t i = 0; i < chw.size(); i++) as_float[i] = chw[i] / 255.0f;
  RS_CHECK_EQ(rgb_transform(chw, 24, 12, RS_LAYOUT_CHW, ops), RS_OK);
  RS_CHECK_EQ(rgb_transform(hwc, 24, 12, RS_LAYOUT_HWC, ops), RS_OK);
  const int n = 24 * 12;
  for (int i = 0; i < n; i++)
    for (int c = 0; c < 3; c++) RS_CHECK_EQ(int(chw[c * n + i]), int(hwc[i * 3 + c]));
  std::vector<float> scratch(2 * as_float.size() + RS_TF_SCRATCH_PADDING);
  RS_CHECK_EQ(rs_transform_rgb(reinterpret_cast<int64_t>(as_float.data()),
                               reinterpret_cast<int64_t>(scratch.data()), 24, 12, RS_LAYOUT_CHW, 1,
                               ops.data(), 4),
              RS_OK);
  double worst = 0;
  for (size_t i = 0; i < chw.size(); i++) {
    RS_CHECK(as_float[i] >= 0.0f && as_float[i] <= 1.0f);
    worst = std::max(worst, std::abs(as_float[i] * 255.0 - chw[i]));
  }
  RS_CHECK(worst <= 2.0);  // uint8 rounds after each geometric step, float does not
}

RS_TEST(bad_parameters_are_refused_before_anything_is_written) {
  Packed t = Packed::textured(16, 8);
  Packed out(16, 8, 7, 7, 7);
  std::vector<uint8_t> scratch(t.bytes.size() + RS_TF_SCRATCH_PADDING);
  auto run = [&](std::vector<float> ops) {
    return rs_transform_yuv8(reinterpret_cast<int64_t>(t.bytes.data()),
                             reinterpret_cast<int64_t>(out.bytes.data()),
                             reinterpret_cast<int64_t>(scratch.data()), 16, 8, 1, 1, 0, ops.data(),
                             static_cast<int>(ops.size() / RS_TF_OP_FLOATS));
  };
  RS_CHECK_EQ(run({9, 1, 0, 0}), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(run({RS_TF_HUE, 0.7f, 0, 0}), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(run({RS_TF_BRIGHTNESS, NAN, 0, 0}), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(run({RS_TF_AFFINE, 0, 1.5f, 0}), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK(std::string(rs_last_error()).find("out of range") != std::string::npos);
  RS_CHECK_EQ(int(out.bytes[0]), 7);
  RS_CHECK_EQ(rs_transform_yuv8_bytes(16, 8, 1, 1), int64_t{192});
  RS_CHECK(rs_transform_yuv8_bytes(0, 8, 1, 1) < 0);
  RS_CHECK(rs_transform_yuv8_bytes(15, 9, 1, 1) == 15 * 9 + 2 * 8 * 5);
  std::vector<uint8_t> frame(16 * 8 * 3);
  RS_CHECK_EQ(rs_transform_rgb(reinterpret_cast<int64_t>(frame.data()), 0, 16, 8, RS_LAYOUT_CHW, 0,
                               nullptr, 0),
              RS_ERR_INVALID_ARGUMENT);
}

// The vectorised loops (AVX2 where the CPU has it) against the definitions, on sizes whose rows
// end in a partial vector and random content.
RS_TEST(wide_random_pictures_match_the_definitions) {
  const int w = 101, h = 37;  // odd: every row ends in a tail; 4:2:0 chroma 51 x 19
  Packed p(w, h, 0, 0, 0);
  p.bytes.resize(static_cast<size_t>(w) * h + 2 * 51 * 19);
  uint32_t seed = 12345;
  for (auto& b : p.bytes) {
    seed = seed * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(seed >> 24);
  }
  auto run = [&](std::vector<float> ops) {
    std::vector<uint8_t> out(p.bytes.size()), scratch(p.bytes.size() + RS_TF_SCRATCH_PADDING);
    RS_CHECK_EQ(rs_transform_yuv8(reinterpret_cast<int64_t>(p.bytes.data()),
                                  reinterpret_cast<int64_t>(out.data()),
                                  reinterpret_cast<int64_t>(scratch.data()), w, h, 1, 1, 0,
                                  ops.data(), static_cast<int>(ops.size() / 4)),
                RS_OK);
    return out;
  };
  auto clamp = [](int v) { return v < 0 ? 0 : v > 255 ? 255 : v; };
  // Brightness 1.25 (Q7: 160), black 16: Y' = (160 Y - 20 x 128 + 64) >> 7.
  std::vector<uint8_t> bright = run({RS_TF_BRIGHTNESS, 1.25f, 0, 0});
  for (int i = 0; i < w * h; i++) {
    RS_CHECK_EQ(int(bright[i]), clamp((p.bytes[i] * 160 - 512 + 64) >> 7));
  }
  for (int i = w * h; i < static_cast<int>(p.bytes.size()); i++) {
    RS_CHECK_EQ(int(bright[i]), clamp((((p.bytes[i] - 128) * 320 + 128) >> 8) + 128));
  }
  // Sharpness 1.5 (k = -128 is outside the vector path's range; 1.4 gives k = -102 inside it).
  for (float factor : {1.4f, 1.5f, 0.7f}) {
    int k = static_cast<int>(std::lround((1 - factor) * 256));
    std::vector<uint8_t> sharp = run({RS_TF_SHARPNESS, factor, 0, 0});
    for (int y = 1; y < h - 1; y++) {
      for (int x = 1; x < w - 1; x++) {
        const uint8_t* r = p.bytes.data() + y * w;
        int sum = r[x - w - 1] + r[x - w] + r[x - w + 1] + r[x - 1] + r[x + 1] + r[x + w - 1] +
                  r[x + w] + r[x + w + 1] + 5 * r[x];
        int blur = ((sum + 6) * 5041) >> 16;
        RS_CHECK_EQ(int(sharp[y * w + x]), clamp(r[x] + (((blur - r[x]) * k + 128) >> 8)));
      }
    }
  }
  // Affine small rotations both ways (LeRobot's +-5 degrees: the 16-pixel runs, one or two rows
  // each) and a translation, and a large one (the gathers): each pixel the nearest source pixel
  // of its centre (a pixel whose source lies within 1e-3 of a boundary may go either way: fixed
  // point).
  for (float degrees : {3.0f, -5.0f, -1.5f, 0.4f, 5.0f, 40.0f}) {
    std::vector<uint8_t> turned = run({RS_TF_AFFINE, degrees, 0.1f, -0.05f});
    double a = degrees * 3.14159265358979323846 / 180;
    int ambiguous = 0;
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        double px = x + 0.5 - w / 2.0 - 0.1f * w;
        double py = y + 0.5 - h / 2.0 + 0.05f * h;
        double sx = std::cos(a) * px - std::sin(a) * py + w / 2.0;
        double sy = std::sin(a) * px + std::cos(a) * py + h / 2.0;
        double fx = sx - std::floor(sx), fy = sy - std::floor(sy);
        if (fx < 1e-3 || fx > 1 - 1e-3 || fy < 1e-3 || fy > 1 - 1e-3) {
          ambiguous++;
          continue;
        }
        int ix = static_cast<int>(std::floor(sx)), iy = static_cast<int>(std::floor(sy));
        int want = ix >= 0 && ix < w && iy >= 0 && iy < h ? p.bytes[iy * w + ix] : 16;
        RS_CHECK_EQ(int(turned[y * w + x]), want);
      }
    }
    RS_CHECK(ambiguous < w * h / 50);
  }
}
