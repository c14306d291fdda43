// The inner loops of the image transforms (image_transforms.cpp), each with a portable version
// and, where the CPU has AVX2 (asked once at run time), a vectorised one that computes the same
// values: the colour maps and the smoothing in 16-bit fixed point, the affine with gathers.
// ROBOSTREAM_NO_AVX2 in the environment forces the portable versions (the tests run both).
// Stateless, thread-safe.
#pragma once

#include <cstdint>

namespace rs::transforms::kernels {

// Bytes a plane the affine reads from must have readable after its last value (its loads read
// up to 16 bytes from a pixel).
constexpr int64_t kReadPadding = 16;

// dst[i] = clamp((src[i] * a + b + 64) >> 7): Y' = ya * Y + yb with a, b in Q7 (|a|, |b| <
// 32768). In place when src == dst; otherwise no overlap.
void luma_map(const uint8_t* src, uint8_t* dst, int64_t n, int16_t a, int16_t b);

// (U, V)_dst - 128 = M ((U, V)_src - 128), M = {m0 m1; m2 m3} in Q8 (|m| < 32768). In place when
// the sources are the destinations; otherwise no overlap.
void chroma_map(const uint8_t* u_src, const uint8_t* v_src, uint8_t* u_dst, uint8_t* v_dst,
                int64_t n, int16_t m0, int16_t m1, int16_t m2, int16_t m3);

// The smoothing blend of a w x h plane into `out` (no overlap): out = clamp(c + ((blur - c) * k +
// 128) >> 8) inside, blur = round(sum of the 3x3 with 5 at the centre / 13), k = (1 - factor) x
// 256; the border rows and columns copied. `src` has kReadPadding readable bytes after it.
void sharpen_plane(uint8_t* out, const uint8_t* src, int w, int h, int k);

// One output row of the nearest-neighbour affine: out[x] = src[iy * w + ix] with (ix, iy) the
// integer parts of (sx + x dx, sy + x dy) in 16.16 fixed point, `fill` outside w x h. `src` has
// kReadPadding readable bytes after its w x h values.
void warp_row(uint8_t* out, const uint8_t* src, int w, int h, int64_t sx, int64_t sy, int64_t dx,
              int64_t dy, uint8_t fill);

// The portable nearest-neighbour affine from output pixel `from` on, for any value type (the
// uint8 planes' tail after the AVX2 gathers, and float planes): as warp_row, with sx, sy the
// source of pixel 0. Reads only inside w x h.
template <typename T>
inline void warp_row_from(T* __restrict out, const T* __restrict src, int w, int h, int from,
                          int64_t sx, int64_t sy, int64_t dx, int64_t dy, T fill) {
  sx += from * dx;
  sy += from * dy;
  for (int x = from; x < w; x++) {
    int64_t ix = sx >> 16;
    int64_t iy = sy >> 16;
    bool inside = static_cast<uint64_t>(ix) < static_cast<uint64_t>(w) &&
                  static_cast<uint64_t>(iy) < static_cast<uint64_t>(h);
    out[x] = inside ? src[iy * w + ix] : fill;
    sx += dx;
    sy += dy;
  }
}

// Mean of n bytes.
double mean(const uint8_t* p, int64_t n);

}  // namespace rs::transforms::kernels
