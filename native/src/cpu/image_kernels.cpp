#include "cpu/image_kernels.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace rs::transforms::kernels {
namespace {

inline uint8_t clamp_u8(int v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }

// ROBOSTREAM_NO_AVX2 set: the portable loops, so the tests run both versions on one machine.
bool have_avx2() {
  static const bool yes =
      __builtin_cpu_supports("avx2") && std::getenv("ROBOSTREAM_NO_AVX2") == nullptr;
  return yes;
}

// ------------------------------------------------------------------------ portable

void luma_scalar(const uint8_t* s, uint8_t* d, int64_t n, int a, int b) {
  for (int64_t i = 0; i < n; i++) d[i] = clamp_u8((s[i] * a + b + 64) >> 7);
}

void chroma_scalar(const uint8_t* us, const uint8_t* vs, uint8_t* ud, uint8_t* vd, int64_t n,
                   int m0, int m1, int m2, int m3) {
  for (int64_t i = 0; i < n; i++) {
    int cu = us[i] - 128;
    int cv = vs[i] - 128;
    ud[i] = clamp_u8(((m0 * cu + m1 * cv + 128) >> 8) + 128);
    vd[i] = clamp_u8(((m2 * cu + m3 * cv + 128) >> 8) + 128);
  }
}

inline uint8_t sharpen_one(const uint8_t* a, const uint8_t* r, const uint8_t* b, int x, int k) {
  int sum =
      a[x - 1] + a[x] + a[x + 1] + r[x - 1] + r[x + 1] + b[x - 1] + b[x] + b[x + 1] + 5 * r[x];
  int blur = ((sum + 6) * 5041) >> 16;  // round(sum / 13): 5041 / 65536 ~ 1 / 13
  int c = r[x];
  return clamp_u8(c + (((blur - c) * k + 128) >> 8));
}

void sharpen_scalar(uint8_t* out, const uint8_t* a, const uint8_t* r, const uint8_t* b, int from,
                    int to, int k) {
  for (int x = from; x < to; x++) out[x] = sharpen_one(a, r, b, x, k);
}

// ------------------------------------------------------------------------ AVX2

// Eight copies of the pair (x, y) as 16-bit lanes: the multipliers of _mm256_madd_epi16.
__attribute__((target("avx2"))) inline __m256i pairs(int16_t x, int16_t y) {
  return _mm256_set1_epi32(static_cast<int>(
      static_cast<uint16_t>(x) | (static_cast<uint32_t>(static_cast<uint16_t>(y)) << 16)));
}

// 16 bytes widened to 16-bit lanes.
__attribute__((target("avx2"))) inline __m256i widen(const uint8_t* p) {
  return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// Packs two vectors of eight int32 (pixels 0-3 | 8-11 and 4-7 | 12-15, as unpacklo/hi of 16-bit
// lanes leave them) into 16 ordered bytes, saturating.
__attribute__((target("avx2"))) inline __m128i pack16(__m256i lo, __m256i hi) {
  __m256i w = _mm256_packs_epi32(lo, hi);
  return _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
}

__attribute__((target("avx2"))) void luma_avx2(const uint8_t* s, uint8_t* d, int64_t n, int16_t a,
                                               int16_t b) {
  const __m256i ab = pairs(a, b);
  const __m256i one = _mm256_set1_epi16(1);
  const __m256i half = _mm256_set1_epi32(64);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i y = widen(s + i);
    __m256i lo = _mm256_madd_epi16(_mm256_unpacklo_epi16(y, one), ab);
    __m256i hi = _mm256_madd_epi16(_mm256_unpackhi_epi16(y, one), ab);
    lo = _mm256_srai_epi32(_mm256_add_epi32(lo, half), 7);
    hi = _mm256_srai_epi32(_mm256_add_epi32(hi, half), 7);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i), pack16(lo, hi));
  }
  luma_scalar(s + i, d + i, n - i, a, b);
}

__attribute__((target("avx2"))) void chroma_avx2(const uint8_t* us, const uint8_t* vs, uint8_t* ud,
                                                 uint8_t* vd, int64_t n, int16_t m0, int16_t m1,
                                                 int16_t m2, int16_t m3) {
  const __m256i mu = pairs(m0, m1);
  const __m256i mv = pairs(m2, m3);
  const __m256i centre16 = _mm256_set1_epi16(128);
  const __m256i round = _mm256_set1_epi32(128 + (128 << 8));  // rounding, then +128 after >> 8
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i cu = _mm256_sub_epi16(widen(us + i), centre16);
    __m256i cv = _mm256_sub_epi16(widen(vs + i), centre16);
    __m256i lo = _mm256_unpacklo_epi16(cu, cv);
    __m256i hi = _mm256_unpackhi_epi16(cu, cv);
    __m256i ulo = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(lo, mu), round), 8);
    __m256i uhi = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(hi, mu), round), 8);
    __m256i vlo = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(lo, mv), round), 8);
    __m256i vhi = _mm256_srai_epi32(_mm256_add_epi32(_mm256_madd_epi16(hi, mv), round), 8);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(ud + i), pack16(ulo, uhi));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(vd + i), pack16(vlo, vhi));
  }
  chroma_scalar(us + i, vs + i, ud + i, vd + i, n - i, m0, m1, m2, m3);
}

// The whole interior of a plane: the 3x3 sums from running column sums (each column's three
// rows, updated by one row in and one out per output row), so each pixel costs a few adds.
// |k| <= 127. Rows 0 and h - 1 and columns 0 and w - 1 are left to the caller.
__attribute__((target("avx2"))) void sharpen_plane_avx2(uint8_t* out, const uint8_t* src, int w,
                                                        int h, int k) {
  thread_local std::vector<uint16_t> columns;
  columns.assign(static_cast<size_t>(w) + 16, 0);
  uint16_t* col = columns.data();
  for (int x = 0; x < w; x++) col[x] = src[x] + src[w + x] + src[2 * w + x];
  const __m256i six = _mm256_set1_epi16(6);
  const __m256i thirteenth = _mm256_set1_epi16(5041);
  const __m256i four = _mm256_set1_epi16(4);
  const __m256i kv = _mm256_set1_epi16(static_cast<int16_t>(k));
  const __m256i half = _mm256_set1_epi16(128);
  for (int y = 1; y < h - 1; y++) {
    const uint8_t* row = src + int64_t{y} * w;
    if (y > 1) {  // the column sums move down one row
      const uint8_t* gone = src + int64_t{y - 2} * w;
      const uint8_t* come = src + int64_t{y + 1} * w;
      int x = 0;
      for (; x + 16 <= w; x += 16) {
        __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col + x));
        c = _mm256_sub_epi16(_mm256_add_epi16(c, widen(come + x)), widen(gone + x));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(col + x), c);
      }
      for (; x < w; x++) col[x] = static_cast<uint16_t>(col[x] + come[x] - gone[x]);
    }
    uint8_t* o = out + int64_t{y} * w;
    int x = 1;
    for (; x + 16 <= w - 1; x += 16) {
      __m256i c = widen(row + x);
      __m256i sum =
          _mm256_add_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(col + x - 1)),
                           _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col + x)));
      sum =
          _mm256_add_epi16(sum, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col + x + 1)));
      sum = _mm256_add_epi16(sum, _mm256_mullo_epi16(c, four));  // the centre counts 5
      __m256i blur = _mm256_mulhi_epu16(_mm256_add_epi16(sum, six), thirteenth);
      __m256i d = _mm256_mullo_epi16(_mm256_sub_epi16(blur, c), kv);
      __m256i v = _mm256_add_epi16(c, _mm256_srai_epi16(_mm256_add_epi16(d, half), 8));
      __m256i packed = _mm256_packus_epi16(v, v);
      _mm_storeu_si128(
          reinterpret_cast<__m128i*>(o + x),
          _mm_unpacklo_epi64(_mm256_castsi256_si128(packed), _mm256_extracti128_si256(packed, 1)));
    }
    sharpen_scalar(o, row - w, row, row + w, x, w - 1, k);
  }
}

// The low byte of each int32 lane, in lane order: 8 bytes.
__attribute__((target("avx2"))) inline __m128i low_bytes(__m256i v) {
  const __m256i pick =
      _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1,
                       -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  __m256i b = _mm256_shuffle_epi8(v, pick);
  return _mm_unpacklo_epi32(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1));
}

// Coordinates as int32 16.16: callers keep |coordinates| < 2^31 (planes up to 8192 a side).
// Blocks of 8 pixels. Where all 8 map inside and the source rows of the first and last are at
// most one apart (|dy| <= 2^16 / 8, ix stepping by 0 or 1: small rotations), the block is two
// 16-byte loads of those rows shuffled into place; elsewhere a masked gather.
__attribute__((target("avx2"))) inline __m128i warp8_avx2(const uint8_t* src, int w, int h,
                                                          int64_t fx, int64_t fy, int64_t dx,
                                                          int64_t dy, bool shuffles, uint8_t fill) {
  const __m256i step = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i minus1 = _mm256_set1_epi32(-1);
  const __m256i wv = _mm256_set1_epi32(w);
  __m256i ix = _mm256_srai_epi32(
      _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(fx)),
                       _mm256_mullo_epi32(step, _mm256_set1_epi32(static_cast<int>(dx)))),
      16);
  __m256i iy = _mm256_srai_epi32(
      _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(fy)),
                       _mm256_mullo_epi32(step, _mm256_set1_epi32(static_cast<int>(dy)))),
      16);
  __m256i inside =
      _mm256_and_si256(_mm256_and_si256(_mm256_cmpgt_epi32(ix, minus1), _mm256_cmpgt_epi32(wv, ix)),
                       _mm256_and_si256(_mm256_cmpgt_epi32(iy, minus1),
                                        _mm256_cmpgt_epi32(_mm256_set1_epi32(h), iy)));
  if (shuffles && _mm256_movemask_ps(_mm256_castsi256_ps(inside)) == 0xFF) {
    int ix0 = _mm256_cvtsi256_si32(ix);
    int iy0 = _mm256_cvtsi256_si32(iy);
    __m256i iy0v = _mm256_set1_epi32(iy0);
    // The last pixel's row: the other row any pixel of the block reads (one apart at most).
    int iy7 =
        iy0 + (dy > 0
                   ? (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(iy, iy0v))) != 0)
                   : -(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(iy0v, iy))) != 0));
    __m128i offsets = low_bytes(_mm256_sub_epi32(ix, _mm256_set1_epi32(ix0)));
    __m128i other = low_bytes(_mm256_xor_si256(_mm256_cmpeq_epi32(iy, iy0v), minus1));
    __m128i first = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + int64_t{iy0} * w + ix0));
    __m128i second =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + int64_t{iy7} * w + ix0));
    return _mm_blendv_epi8(_mm_shuffle_epi8(first, offsets), _mm_shuffle_epi8(second, offsets),
                           other);
  }
  __m256i index = _mm256_and_si256(_mm256_add_epi32(_mm256_mullo_epi32(iy, wv), ix), inside);
  __m256i got = _mm256_mask_i32gather_epi32(_mm256_set1_epi32(fill),
                                            reinterpret_cast<const int*>(src), index, inside,
                                            1);  // lanes outside read nothing
  return low_bytes(got);
}

// Runs of 16 first: with small rotations (0 < dx <= 2^16, |dy| <= 2^16, so ix steps by 0 or 1
// and iy by 0 or 1 in one direction), a run whose ends are 15 source columns apart and at most
// one row apart, all inside, is one contiguous 16 bytes of one row, or of two rows switching at
// lane c (found from the lanes' rows): one or two loads that stay inside the row, a blend. Most
// of a frame under LeRobot's +-5 degrees is such runs; the rest goes through warp8_avx2.
__attribute__((target("avx2"))) void warp_avx2(uint8_t* out, const uint8_t* src, int w, int h,
                                               int64_t sx, int64_t sy, int64_t dx, int64_t dy,
                                               uint8_t fill) {
  const bool shuffles = dx > 0 && dx <= 65536 && dy >= -65536 / 8 && dy <= 65536 / 8;
  const bool runs = dx > 0 && dx <= 65536 && dy >= -65536 && dy <= 65536;
  const __m128i lane = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m256i step = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i dyk = _mm256_mullo_epi32(step, _mm256_set1_epi32(static_cast<int>(dy)));
  const __m256i dy8 = _mm256_set1_epi32(static_cast<int>(8 * dy));
  const int64_t dx15 = 15 * dx;
  const int64_t dy15 = 15 * dy;
  // A run starting at ix0 is inside when 0 <= ix0 < w - 15 (its last column is ix0 + 15).
  const uint64_t run_columns = w >= 16 ? static_cast<uint64_t>(w - 15) : 0;
  int x = 0;
  int64_t fx = sx;
  int64_t fy = sy;
  while (x + 8 <= w) {
    if (runs && x + 16 <= w) {
      int64_t ix0 = fx >> 16;
      int64_t iy0 = fy >> 16;
      int64_t iy15 = (fy + dy15) >> 16;
      // One compare per condition: unsigned ranges, rows at most one apart.
      if (((fx + dx15) >> 16) - ix0 == 15 && static_cast<uint64_t>(ix0) < run_columns &&
          static_cast<uint64_t>(iy0) < static_cast<uint64_t>(h) &&
          static_cast<uint64_t>(iy15) < static_cast<uint64_t>(h) &&
          static_cast<uint64_t>(iy15 - iy0 + 1) <= 2) {
        __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + iy0 * w + ix0));
        if (iy15 != iy0) {
          // Lanes 0..c-1 read row iy0, the rest row iy15 (rows are monotonic along the run).
          __m256i lo = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(fy)), dyk);
          __m256i hi = _mm256_add_epi32(lo, dy8);
          __m256i row0 = _mm256_set1_epi32(static_cast<int>(iy0));
          int same = _mm256_movemask_ps(
                         _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_srai_epi32(lo, 16), row0))) |
                     (_mm256_movemask_ps(
                          _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_srai_epi32(hi, 16), row0)))
                      << 8);
          int c = __builtin_popcount(static_cast<unsigned>(same));
          __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + iy15 * w + ix0));
          bytes = _mm_blendv_epi8(next, bytes,
                                  _mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>(c)), lane));
        }
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + x), bytes);
        x += 16;
        fx += 16 * dx;
        fy += 16 * dy;
        continue;
      }
    }
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out + x),
                     warp8_avx2(src, w, h, fx, fy, dx, dy, shuffles, fill));
    x += 8;
    fx += 8 * dx;
    fy += 8 * dy;
  }
  warp_row_from<uint8_t>(out, src, w, h, x, sx, sy, dx, dy, fill);
}

__attribute__((target("avx2"))) double mean_avx2(const uint8_t* p, int64_t n) {
  __m256i acc = _mm256_setzero_si256();
  const __m256i zero = _mm256_setzero_si256();
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    acc = _mm256_add_epi64(
        acc, _mm256_sad_epu8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)), zero));
  }
  uint64_t lanes[4];
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(lanes), acc);
  uint64_t sum = lanes[0] + lanes[1] + lanes[2] + lanes[3];
  for (; i < n; i++) sum += p[i];
  return n == 0 ? 0 : static_cast<double>(sum) / n;
}

}  // namespace

void luma_map(const uint8_t* src, uint8_t* dst, int64_t n, int16_t a, int16_t b) {
  if (have_avx2()) {
    luma_avx2(src, dst, n, a, b);
  } else {
    luma_scalar(src, dst, n, a, b);
  }
}

void chroma_map(const uint8_t* u_src, const uint8_t* v_src, uint8_t* u_dst, uint8_t* v_dst,
                int64_t n, int16_t m0, int16_t m1, int16_t m2, int16_t m3) {
  if (have_avx2()) {
    chroma_avx2(u_src, v_src, u_dst, v_dst, n, m0, m1, m2, m3);
  } else {
    chroma_scalar(u_src, v_src, u_dst, v_dst, n, m0, m1, m2, m3);
  }
}

void sharpen_plane(uint8_t* out, const uint8_t* src, int w, int h, int k) {
  if (w < 3 || h < 3) {
    std::memcpy(out, src, static_cast<size_t>(w) * h);  // no interior: all border
    return;
  }
  // The borders are kept; the interior is all written below.
  std::memcpy(out, src, static_cast<size_t>(w));
  std::memcpy(out + int64_t{h - 1} * w, src + int64_t{h - 1} * w, static_cast<size_t>(w));
  for (int y = 1; y < h - 1; y++) {
    out[int64_t{y} * w] = src[int64_t{y} * w];
    out[int64_t{y} * w + w - 1] = src[int64_t{y} * w + w - 1];
  }
  if (have_avx2() && k >= -127 && k <= 127) {
    sharpen_plane_avx2(out, src, w, h, k);
    return;
  }
  for (int y = 1; y < h - 1; y++) {
    const uint8_t* row = src + int64_t{y} * w;
    sharpen_scalar(out + int64_t{y} * w, row - w, row, row + w, 1, w - 1, k);
  }
}

void warp_row(uint8_t* out, const uint8_t* src, int w, int h, int64_t sx, int64_t sy, int64_t dx,
              int64_t dy, uint8_t fill) {
  // int32 lanes: every coordinate of the row (within 2 w + |start|) must fit in 16.16.
  const int64_t limit = int64_t{1} << 30;
  int64_t end_x = sx + dx * w;
  int64_t end_y = sy + dy * w;
  bool fits = w <= 8192 && h <= 8192 && sx > -limit && sx < limit && sy > -limit && sy < limit &&
              end_x > -limit && end_x < limit && end_y > -limit && end_y < limit;
  if (have_avx2() && fits) {
    warp_avx2(out, src, w, h, sx, sy, dx, dy, fill);
  } else {
    warp_row_from<uint8_t>(out, src, w, h, 0, sx, sy, dx, dy, fill);
  }
}

double mean(const uint8_t* p, int64_t n) {
  if (have_avx2()) return mean_avx2(p, n);
  uint64_t sum = 0;
  for (int64_t i = 0; i < n; i++) sum += p[i];
  return n == 0 ? 0 : static_cast<double>(sum) / n;
}

}  // namespace rs::transforms::kernels
