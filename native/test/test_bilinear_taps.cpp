// The colour kernel's scaling arithmetic (bilinear_taps.hpp), on the host: the kernel itself
// needs a GPU, so this is what is checked everywhere (the resized job's checks are in
// test_nvdec_rules.cpp).
#include <cmath>

#include "cuda/bilinear_taps.hpp"
#include "test_support.hpp"

namespace {

bool near(float a, float b) { return std::fabs(a - b) < 1e-6f; }

bool tap_is(const rs::BilinearTap& t, int i0, int i1, float w1) {
  return t.i0 == i0 && t.i1 == i1 && near(t.w1, w1);
}

}  // namespace

// Equal sizes read each pixel's own sample with no weight: the unscaled kernel's bytes.
RS_TEST(equal_sizes_give_the_identity) {
  for (int size : {1, 2, 7, 640}) {
    for (int i = 0; i < size; ++i) RS_CHECK(tap_is(rs::bilinear_tap(i, size, size), i, i, 0.0f));
  }
}

// Halving: output i sits at source 2i + 0.5, halfway between 2i and 2i + 1 (swscale's centres).
RS_TEST(halving_averages_pairs) {
  for (int i = 0; i < 4; ++i) {
    RS_CHECK(tap_is(rs::bilinear_tap(i, 8, 4), 2 * i, 2 * i + 1, 0.5f));
  }
}

// Doubling: (i + 0.5) / 2 - 0.5; the first and last outputs fall outside and clamp to the edge.
RS_TEST(doubling_interpolates_quarters_and_clamps_at_the_edges) {
  RS_CHECK(tap_is(rs::bilinear_tap(0, 4, 8), 0, 1, 0.0f));   // -0.25 clamped to 0
  RS_CHECK(tap_is(rs::bilinear_tap(1, 4, 8), 0, 1, 0.25f));  // 0.25
  RS_CHECK(tap_is(rs::bilinear_tap(2, 4, 8), 0, 1, 0.75f));  // 0.75
  RS_CHECK(tap_is(rs::bilinear_tap(3, 4, 8), 1, 2, 0.25f));  // 1.25
  RS_CHECK(tap_is(rs::bilinear_tap(6, 4, 8), 2, 3, 0.75f));  // 2.75
  RS_CHECK(tap_is(rs::bilinear_tap(7, 4, 8), 3, 3, 0.0f));   // 3.25 clamped to 3
}

// A scale that is no simple ratio (320 -> 96, ResizeTest's top camera): every tap stays inside
// the picture, its weight in [0, 1), and the source position grows with the output index.
RS_TEST(every_tap_stays_inside_the_picture) {
  const int sizes[][2] = {{320, 96}, {96, 128}, {240, 72}, {1, 5}, {5, 1}, {3, 8192}};
  for (const auto& s : sizes) {
    float last = -1.0f;
    for (int i = 0; i < s[1]; ++i) {
      const rs::BilinearTap t = rs::bilinear_tap(i, s[0], s[1]);
      RS_CHECK(t.i0 >= 0 && t.i0 < s[0] && t.i1 >= t.i0 && t.i1 < s[0] && t.i1 <= t.i0 + 1);
      RS_CHECK(t.w1 >= 0.0f && t.w1 < 1.0f);
      const float pos = static_cast<float>(t.i0) + t.w1;
      RS_CHECK(pos >= last);
      last = pos;
    }
  }
  // 320 -> 96: output 10 at (10.5) * 320 / 96 - 0.5 = 34.5.
  RS_CHECK(tap_is(rs::bilinear_tap(10, 320, 96), 34, 35, 0.5f));
}

RS_TEST(mixing_weights_the_second_sample) {
  RS_CHECK(near(rs::bilinear_mix(10.0f, 20.0f, 0.0f), 10.0f));
  RS_CHECK(near(rs::bilinear_mix(10.0f, 20.0f, 0.25f), 12.5f));
  RS_CHECK(near(rs::bilinear_mix(255.0f, 255.0f, 0.7f), 255.0f));
}
