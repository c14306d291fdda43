#include "cpu/image_transforms.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "cpu/image_kernels.hpp"

namespace rs::transforms {
namespace {

// BT.601 luma weights: torchvision's rgb_to_grayscale (0.2989, 0.587, 0.114) rounded to the
// standard's values, and the grey that saturation and contrast blend with.
constexpr float kWr = 0.299f;
constexpr float kWg = 0.587f;
constexpr float kWb = 0.114f;
constexpr double kPi = 3.14159265358979323846;

template <typename T>
struct Plane {
  T* data;
  int w;
  int h;
};

template <typename T>
constexpr float max_value() {
  return std::is_same<T, uint8_t>::value ? 255.0f : 1.0f;
}

inline uint8_t clamp_u8(int v) { return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v); }

inline float clampf(float v, float hi) { return v < 0.0f ? 0.0f : v > hi ? hi : v; }

// ---------------------------------------------------------------- geometry (one plane)

// torchvision's adjust_sharpness on one plane: the interior blended with the 3x3 smoothing
// [[1,1,1],[1,5,1],[1,1,1]] / 13 (rounded for uint8), the border rows and columns kept.
void sharpen_row(float* out, const float* above, const float* row, const float* below, int w,
                 float keep) {
  for (int x = 1; x < w - 1; x++) {
    float sum = above[x - 1] + above[x] + above[x + 1] + row[x - 1] + row[x + 1] + below[x - 1] +
                below[x] + below[x + 1] + 5.0f * row[x];
    float blur = sum / 13.0f;
    out[x] = clampf(row[x] + (blur - row[x]) * keep, 1.0f);
  }
}

// `src` sharpened by `factor` into `dst` (same size, no overlap).
template <typename T>
void sharpen(Plane<const T> src, Plane<T> dst, float factor) {
  int w = src.w;
  int h = src.h;
  if constexpr (std::is_same<T, uint8_t>::value) {
    int k = static_cast<int>(std::lround((1.0f - factor) * 256.0f));
    kernels::sharpen_plane(dst.data, src.data, w, h, k);
  } else {
    std::memcpy(dst.data, src.data, sizeof(T) * static_cast<size_t>(w) * h);
    if (w < 3 || h < 3) return;
    for (int y = 1; y < h - 1; y++) {
      const T* row = src.data + static_cast<int64_t>(y) * w;
      sharpen_row(dst.data + static_cast<int64_t>(y) * w, row - w, row, row + w, w, 1.0f - factor);
    }
  }
}

// dst(p) = src(R(-angle) (p - c - t) + c): `src` rotated by `degrees` counter-clockwise about
// its centre c and moved by t = (tx * w, ty * h), nearest neighbour, `fill` where nothing maps.
// A uint8 `src` has kernels::kReadPadding readable bytes after it.
template <typename T>
void warp(Plane<const T> src, Plane<T> dst, float degrees, float tx, float ty, T fill) {
  double a = degrees * kPi / 180.0;
  double cs = std::cos(a);
  double sn = std::sin(a);
  double cx = src.w * 0.5;
  double cy = src.h * 0.5;
  double mx = tx * src.w;
  double my = ty * src.h;
  // The step along a row is the same for every row.
  const int64_t fdx = std::llround(cs * 65536.0);
  const int64_t fdy = std::llround(sn * 65536.0);
  for (int y = 0; y < dst.h; y++) {
    // Source of the centre of pixel (0, y); y grows downwards, so counter-clockwise on screen
    // is x' = cos x + sin y, y' = -sin x + cos y, and its inverse is applied here.
    double px = 0.5 - cx - mx;
    double py = y + 0.5 - cy - my;
    double sx = cs * px - sn * py + cx;
    double sy = sn * px + cs * py + cy;
    T* out = dst.data + static_cast<int64_t>(y) * dst.w;
    int64_t fx = std::llround(sx * 65536.0);
    int64_t fy = std::llround(sy * 65536.0);
    if constexpr (std::is_same<T, uint8_t>::value) {
      kernels::warp_row(out, src.data, src.w, src.h, fx, fy, fdx, fdy, fill);
    } else {
      kernels::warp_row_from<T>(out, src.data, src.w, src.h, 0, fx, fy, fdx, fdy, fill);
    }
  }
}

// ---------------------------------------------------------------- colour (YUV)

// A run of colour operations on a YUV picture, kept as one map and applied in one pass:
// Y' = ya * Y + yb, (U', V') - 128 = M (U - 128, V - 128). Composing them exactly as affine
// maps differs from applying each with its own clamp only where a value would leave [0, 255]
// in between.
struct YuvColour {
  double ya = 1;
  double yb = 0;
  double m[4] = {1, 0, 0, 1};
  bool identity = true;

  void chroma(double a, double b, double c, double d) {
    double n[4] = {a * m[0] + b * m[2], a * m[1] + b * m[3], c * m[0] + d * m[2],
                   c * m[1] + d * m[3]};
    std::memcpy(m, n, sizeof m);
    identity = false;
  }

  void luma(double a, double b) {
    ya = a * ya;
    yb = a * yb + b;
    identity = false;
  }
};

// Fixed point of a composed coefficient, bounded: beyond the bound every pixel saturates
// anyway, and inside it the kernels' 16-bit lanes cannot overflow.
int16_t fixed(double v, double bound, int bits) {
  double c = std::min(std::max(v, -bound), bound);
  return static_cast<int16_t>(std::lround(c * (1 << bits)));
}

// The colour run so far, from the planes `from` (the source picture or the destination's own)
// into the destination's `to`; then the run starts again.
void apply(YuvColour& c, const uint8_t* const from[3], Plane<uint8_t> to[3]) {
  if (c.identity) return;
  kernels::luma_map(from[0], to[0].data, static_cast<int64_t>(to[0].w) * to[0].h,
                    fixed(c.ya, 255, 7), fixed(c.yb, 255, 7));
  kernels::chroma_map(from[1], from[2], to[1].data, to[2].data,
                      static_cast<int64_t>(to[1].w) * to[1].h, fixed(c.m[0], 127, 8),
                      fixed(c.m[1], 127, 8), fixed(c.m[2], 127, 8), fixed(c.m[3], 127, 8));
  c = YuvColour{};
}

// ---------------------------------------------------------------- colour (RGB)

// The same operations on RGB: x' = M x + o per pixel (x in [0, max]), composed the same way.
struct RgbColour {
  double m[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double o[3] = {0, 0, 0};
  bool identity = true;

  // (M, o) <- (A M, A o + b)
  void then(const double a[9], const double b[3]) {
    double n[9];
    double p[3];
    for (int r = 0; r < 3; r++) {
      for (int col = 0; col < 3; col++) {
        n[r * 3 + col] = a[r * 3] * m[col] + a[r * 3 + 1] * m[3 + col] + a[r * 3 + 2] * m[6 + col];
      }
      p[r] = a[r * 3] * o[0] + a[r * 3 + 1] * o[1] + a[r * 3 + 2] * o[2] + b[r];
    }
    std::memcpy(m, n, sizeof m);
    std::memcpy(o, p, sizeof o);
    identity = false;
  }
};

// RGB -> (Y, Cb, Cr) of BT.601 without offsets, and back: the hue rotation's frame.
void hue_matrix(double turns, double out[9]) {
  const double t[9] = {kWr,
                       kWg,
                       kWb,
                       -kWr / 1.772,
                       -kWg / 1.772,
                       (1 - kWb) / 1.772,
                       (1 - kWr) / 1.402,
                       -kWg / 1.402,
                       -kWb / 1.402};
  const double inv[9] = {1, 0, 1.402, 1, -0.344136286, -0.714136286, 1, 1.772, 0};
  double a = 2 * kPi * turns;
  double r[9] = {1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a)};
  double rt[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      rt[i * 3 + j] = r[i * 3] * t[j] + r[i * 3 + 1] * t[3 + j] + r[i * 3 + 2] * t[6 + j];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      out[i * 3 + j] = inv[i * 3] * rt[j] + inv[i * 3 + 1] * rt[3 + j] + inv[i * 3 + 2] * rt[6 + j];
}

template <typename T>
void channel_means(const Plane<T> planes[3], double out[3]) {
  for (int c = 0; c < 3; c++) {
    int64_t n = static_cast<int64_t>(planes[c].w) * planes[c].h;
    double sum = 0;
    for (int64_t i = 0; i < n; i++) sum += planes[c].data[i];
    out[c] = n == 0 ? 0 : sum / n;
  }
}

template <typename T>
void apply(RgbColour& c, Plane<T> planes[3]) {
  if (c.identity) return;
  float m[9];
  float o[3];
  for (int i = 0; i < 9; i++) m[i] = static_cast<float>(c.m[i]);
  for (int i = 0; i < 3; i++) o[i] = static_cast<float>(c.o[i]);
  const float hi = max_value<T>();
  int64_t n = static_cast<int64_t>(planes[0].w) * planes[0].h;
  T* r = planes[0].data;
  T* g = planes[1].data;
  T* b = planes[2].data;
  for (int64_t i = 0; i < n; i++) {
    float x0 = r[i];
    float x1 = g[i];
    float x2 = b[i];
    float y0 = clampf(m[0] * x0 + m[1] * x1 + m[2] * x2 + o[0], hi);
    float y1 = clampf(m[3] * x0 + m[4] * x1 + m[5] * x2 + o[1], hi);
    float y2 = clampf(m[6] * x0 + m[7] * x1 + m[8] * x2 + o[2], hi);
    if constexpr (std::is_same<T, uint8_t>::value) {
      r[i] = static_cast<uint8_t>(static_cast<int>(y0 + 0.5f));
      g[i] = static_cast<uint8_t>(static_cast<int>(y1 + 0.5f));
      b[i] = static_cast<uint8_t>(static_cast<int>(y2 + 0.5f));
    } else {
      r[i] = y0;
      g[i] = y1;
      b[i] = y2;
    }
  }
  c = RgbColour{};
}

template <typename T>
void transform_planes(Plane<T> planes[3], Plane<T> spare, const Op* ops, int n) {
  RgbColour colour;
  double raw_means[3];
  bool have_means = false;
  const double hi = max_value<T>();
  for (int i = 0; i < n; i++) {
    const Op& op = ops[i];
    switch (static_cast<int>(op.kind)) {
      case kBrightness: {
        const double a[9] = {op.a, 0, 0, 0, op.a, 0, 0, 0, op.a};
        const double b[3] = {0, 0, 0};
        colour.then(a, b);
        break;
      }
      case kContrast: {
        if (!have_means) {
          channel_means<T>(planes, raw_means);
          have_means = true;
        }
        double grey = 0;
        const double w[3] = {kWr, kWg, kWb};
        for (int r = 0; r < 3; r++) {
          double cur = colour.m[r * 3] * raw_means[0] + colour.m[r * 3 + 1] * raw_means[1] +
                       colour.m[r * 3 + 2] * raw_means[2] + colour.o[r];
          grey += w[r] * std::min(std::max(cur, 0.0), hi);
        }
        double f = op.a;
        const double a[9] = {f, 0, 0, 0, f, 0, 0, 0, f};
        const double b[3] = {(1 - f) * grey, (1 - f) * grey, (1 - f) * grey};
        colour.then(a, b);
        break;
      }
      case kSaturation: {
        double s = op.a;
        double a[9];
        const double w[3] = {kWr, kWg, kWb};
        for (int r = 0; r < 3; r++)
          for (int col = 0; col < 3; col++) a[r * 3 + col] = (r == col ? s : 0) + (1 - s) * w[col];
        const double b[3] = {0, 0, 0};
        colour.then(a, b);
        break;
      }
      case kHue: {
        double a[9];
        hue_matrix(op.a, a);
        const double b[3] = {0, 0, 0};
        colour.then(a, b);
        break;
      }
      case kSharpness:
      case kAffine: {
        apply<T>(colour, planes);
        have_means = false;
        for (int c = 0; c < 3; c++) {
          // The copy in `spare` has room after it (see transform_rgb_typed): the gathers' padding.
          std::memcpy(spare.data, planes[c].data,
                      sizeof(T) * static_cast<size_t>(planes[c].w) * planes[c].h);
          Plane<const T> src{spare.data, planes[c].w, planes[c].h};
          if (static_cast<int>(op.kind) == kSharpness) {
            sharpen<T>(src, planes[c], op.a);
          } else {
            warp<T>(src, planes[c], op.a, op.b, op.c, T{0});
          }
        }
        break;
      }
      default:
        throw InvalidArgument("unknown image transform " + std::to_string(op.kind));
    }
  }
  apply<T>(colour, planes);
}

// HWC <-> three planes, for the RGB path's HWC frames.
template <typename T>
void deinterleave(const T* hwc, T* planar, int64_t pixels) {
  for (int64_t i = 0; i < pixels; i++) {
    planar[i] = hwc[3 * i];
    planar[pixels + i] = hwc[3 * i + 1];
    planar[2 * pixels + i] = hwc[3 * i + 2];
  }
}

template <typename T>
void interleave(const T* planar, T* hwc, int64_t pixels) {
  for (int64_t i = 0; i < pixels; i++) {
    hwc[3 * i] = planar[i];
    hwc[3 * i + 1] = planar[pixels + i];
    hwc[3 * i + 2] = planar[2 * pixels + i];
  }
}

template <typename T>
void transform_rgb_typed(T* frame, T* scratch, int width, int height, int layout, const Op* ops,
                         int n) {
  int64_t pixels = static_cast<int64_t>(width) * height;
  // CHW: the frame's planes, scratch's first plane for the geometry. HWC: the planes in scratch
  // (three of them), then the spare plane. Either way the spare plane has a whole plane or more
  // of scratch after it: the gathers' padding.
  T* base = layout == 1 ? frame : scratch;
  T* spare = layout == 1 ? scratch : scratch + 3 * pixels;
  if (layout != 1) deinterleave<T>(frame, scratch, pixels);
  Plane<T> planes[3] = {
      {base, width, height}, {base + pixels, width, height}, {base + 2 * pixels, width, height}};
  transform_planes<T>(planes, Plane<T>{spare, width, height}, ops, n);
  if (layout != 1) interleave<T>(scratch, frame, pixels);
}

}  // namespace

void check_ops(const Op* ops, int n) {
  if (n < 0 || n > 64) throw InvalidArgument("0..64 image transforms, not " + std::to_string(n));
  if (n > 0 && !ops) throw InvalidArgument("null image transform operations");
  for (int i = 0; i < n; i++) {
    const Op& op = ops[i];
    if (!std::isfinite(op.kind) || !std::isfinite(op.a) || !std::isfinite(op.b) ||
        !std::isfinite(op.c)) {
      throw InvalidArgument("image transform " + std::to_string(i) + " has a non-finite value");
    }
    int kind = static_cast<int>(op.kind);
    bool ok = kind == op.kind;
    switch (kind) {
      case kBrightness:
      case kContrast:
      case kSaturation:
      case kSharpness:
        ok = ok && op.a >= 0 && op.a <= 16;
        break;
      case kHue:
        ok = ok && op.a >= -0.5f && op.a <= 0.5f;
        break;
      case kAffine:
        ok =
            ok && op.a >= -180 && op.a <= 180 && op.b >= -1 && op.b <= 1 && op.c >= -1 && op.c <= 1;
        break;
      default:
        ok = false;
    }
    if (!ok) {
      throw InvalidArgument("image transform " + std::to_string(i) + " (kind " +
                            std::to_string(op.kind) + ") has a parameter out of range");
    }
  }
}

int64_t yuv8_bytes(const Yuv8Picture& p) {
  sizes::check_frame_size("transformed picture", p.height, p.width);
  if (p.chroma_w_shift < 0 || p.chroma_w_shift > 1 || p.chroma_h_shift < 0 ||
      p.chroma_h_shift > 1) {
    throw InvalidArgument("chroma subsampling shifts must be 0 or 1");
  }
  int64_t cw = (p.width + (1 << p.chroma_w_shift) - 1) >> p.chroma_w_shift;
  int64_t ch = (p.height + (1 << p.chroma_h_shift) - 1) >> p.chroma_h_shift;
  return static_cast<int64_t>(p.width) * p.height + 2 * cw * ch;
}

void transform_yuv8(const Yuv8Picture& p, const uint8_t* src, uint8_t* dst, uint8_t* scratch,
                    const Op* ops, int n) {
  yuv8_bytes(p);  // checks the geometry
  check_ops(ops, n);
  if (!src || !dst || !scratch) throw InvalidArgument("null picture for the image transforms");
  int cw = (p.width + (1 << p.chroma_w_shift) - 1) >> p.chroma_w_shift;
  int ch = (p.height + (1 << p.chroma_h_shift) - 1) >> p.chroma_h_shift;
  const int64_t luma = static_cast<int64_t>(p.width) * p.height;
  const int64_t chroma = static_cast<int64_t>(cw) * ch;
  Plane<uint8_t> planes[3] = {
      {dst, p.width, p.height}, {dst + luma, cw, ch}, {dst + luma + chroma, cw, ch}};
  // Where each plane's current values are: the source picture until an operation first writes
  // that plane into dst, so no pass copies the whole picture before the first operation.
  const uint8_t* source[3] = {src, src + luma, src + luma + chroma};
  const uint8_t* current[3] = {source[0], source[1], source[2]};
  auto flush = [&](YuvColour& colour) {
    if (colour.identity) return;
    apply(colour, current, planes);
    for (int c = 0; c < 3; c++) current[c] = planes[c].data;
  };
  const double black = p.full_range ? 0 : 16;
  YuvColour colour;
  double raw_mean = -1;
  for (int i = 0; i < n; i++) {
    const Op& op = ops[i];
    switch (static_cast<int>(op.kind)) {
      case kBrightness:  // RGB x a: luma about black, chroma scaled
        colour.luma(op.a, (1 - op.a) * black);
        colour.chroma(op.a, 0, 0, op.a);
        break;
      case kContrast: {  // blend with the frame's mean luma
        if (raw_mean < 0) raw_mean = kernels::mean(current[0], luma);
        double mean = std::min(std::max(colour.ya * raw_mean + colour.yb, 0.0), 255.0);
        colour.luma(op.a, (1 - op.a) * mean);
        colour.chroma(op.a, 0, 0, op.a);
        break;
      }
      case kSaturation:  // blend with each pixel's grey: chroma scaled
        colour.chroma(op.a, 0, 0, op.a);
        break;
      case kHue: {  // chroma rotated (Cb towards Cr for a positive shift)
        double a = 2 * kPi * op.a;
        colour.chroma(std::cos(a), -std::sin(a), std::sin(a), std::cos(a));
        break;
      }
      case kSharpness: {
        flush(colour);
        raw_mean = -1;
        // The source's luma is followed by its chroma (the kernel's read padding): filter it
        // straight into dst; luma already in dst goes through scratch.
        const uint8_t* from = current[0];
        if (from == planes[0].data || 2 * chroma < kernels::kReadPadding) {
          std::memcpy(scratch, from, static_cast<size_t>(luma));
          from = scratch;
        }
        sharpen<uint8_t>(Plane<const uint8_t>{from, p.width, p.height}, planes[0], op.a);
        current[0] = planes[0].data;
        break;
      }
      case kAffine: {
        flush(colour);
        raw_mean = -1;
        for (int c = 0; c < 3; c++) {
          // The copy in scratch is followed by the rest of scratch: the gathers' padding.
          std::memcpy(scratch, current[c], static_cast<size_t>(planes[c].w) * planes[c].h);
          uint8_t fill = static_cast<uint8_t>(c == 0 ? black : 128);
          warp<uint8_t>(Plane<const uint8_t>{scratch, planes[c].w, planes[c].h}, planes[c], op.a,
                        op.b, op.c, fill);
          current[c] = planes[c].data;
        }
        break;
      }
      default:
        throw InvalidArgument("unknown image transform");
    }
  }
  flush(colour);
  for (int c = 0; c < 3; c++) {  // planes no operation wrote
    if (current[c] != planes[c].data) {
      std::memcpy(planes[c].data, current[c], static_cast<size_t>(planes[c].w) * planes[c].h);
    }
  }
}

void transform_rgb(void* frame, void* scratch, int width, int height, int layout, bool is_float,
                   const Op* ops, int n) {
  sizes::check_frame_size("transformed frame", height, width);
  check_ops(ops, n);
  if (!frame || !scratch) throw InvalidArgument("null frame for the image transforms");
  if (layout != 0 && layout != 1) throw InvalidArgument("layout must be HWC (0) or CHW (1)");
  if (is_float) {
    transform_rgb_typed<float>(static_cast<float*>(frame), static_cast<float*>(scratch), width,
                               height, layout, ops, n);
  } else {
    transform_rgb_typed<uint8_t>(static_cast<uint8_t*>(frame), static_cast<uint8_t*>(scratch),
                                 width, height, layout, ops, n);
  }
}

}  // namespace rs::transforms
