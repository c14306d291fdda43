// The built-in image transforms (LeRobot's default image_transforms: brightness, contrast,
// saturation, hue, sharpness, a random affine), applied by the loader's workers to one frame
// before it is batched. Two entry points with one definition of each operation:
//  - transform_yuv8: on a packed 8-bit planar YUV picture (the CPU path's held frames), before
//    its conversion to RGB: the colour operations are affine maps of luma and chroma (so any run
//    of them costs one pass over the planes), sharpness filters luma, the affine warps every
//    plane at its own resolution;
//  - transform_rgb: on an RGB frame (uint8 or float32 in [0, 1], HWC or CHW) in place, for
//    frames that are RGB already (PNG image features, the device path's host batches, deep
//    sources). The colour operations are the same maps written in RGB (BT.601 luma weights,
//    torchvision's grey), sharpness filters every channel.
// The parameters come from the caller (drawn in Java from the sample's seed); nothing here is
// random. Stateless and thread-safe (scratch memory is the caller's).
#pragma once

#include <cstdint>

namespace rs::transforms {

enum Kind : int {
  kBrightness = 1,  // a: factor (x * a)
  kContrast = 2,    // a: factor (blend with the frame's mean grey)
  kSaturation = 3,  // a: factor (blend with each pixel's grey)
  kHue = 4,         // a: turns in [-0.5, 0.5] (rotation of the chroma about the grey axis)
  kSharpness = 5,   // a: factor (blend with torchvision's 3x3 smoothing; borders kept)
  kAffine = 6,      // a: degrees counter-clockwise, b, c: translation in fractions of W and H
};

// One operation: what the C API's ops array holds, RS_TF_OP_FLOATS floats each.
struct Op {
  float kind;
  float a;
  float b;
  float c;
};

// Throws InvalidArgument for an unknown kind or a parameter outside its range.
void check_ops(const Op* ops, int n);

struct Yuv8Picture {
  int width;
  int height;
  int chroma_w_shift;  // 1 for 4:2:0 and 4:2:2, 0 for 4:4:4
  int chroma_h_shift;  // 1 for 4:2:0
  bool full_range;     // black is Y 0 (else 16); the fill of the affine's empty corners
};

// Bytes scratch memory has beyond what the data needs: the affine's gathers read 4 bytes at a time.
constexpr int64_t kScratchPadding = 64;

// Bytes of a packed picture (Y, U, V back to back, no padding): the size of src and dst; scratch
// holds yuv8_bytes + kScratchPadding.
int64_t yuv8_bytes(const Yuv8Picture& p);

// dst = src with ops applied in order. src and dst must not overlap.
void transform_yuv8(const Yuv8Picture& p, const uint8_t* src, uint8_t* dst, uint8_t* scratch,
                    const Op* ops, int n);

// ops applied in order to the RGB frame at `frame` (width*height*3 values, uint8 or float32 in
// [0, 1], layout RS_LAYOUT_HWC / RS_LAYOUT_CHW), in place; scratch: two frames' bytes +
// kScratchPadding.
void transform_rgb(void* frame, void* scratch, int width, int height, int layout, bool is_float,
                   const Op* ops, int n);

}  // namespace rs::transforms
