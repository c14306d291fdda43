// NV12 / P016 (NVDEC's output surfaces) to RGB, uint8 or float32 in [0, 1], HWC or CHW, written
// straight into a batch slot. Compiled by nvcc to PTX only (no CUDA runtime): the core embeds the
// PTX and loads it through the driver API (cuModuleLoadData), so it needs libcuda at run time and
// nothing at link time, and the driver JIT-compiles it for whatever GPU is present.
// One thread per output pixel; coefficients come from the host (matrix and range of the stream).

extern "C" __global__ void rs_nv12_to_rgb(const unsigned char* luma, const unsigned char* chroma,
                                          unsigned int pitch, int width, int height,
                                          int sixteen_bit, float y_offset, float y_scale,
                                          float c_scale, float rv, float gu, float gv, float bu,
                                          int layout, int dtype, void* dst) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;

  const unsigned char* luma_row = luma + static_cast<size_t>(y) * pitch;
  const unsigned char* chroma_row = chroma + static_cast<size_t>(y / 2) * pitch;
  const int cx = (x / 2) * 2;
  float y8, u8, v8;
  if (sixteen_bit) {
    // P016 keeps samples in the high bits of 16-bit words: /256 gives the 8-bit scale.
    y8 = reinterpret_cast<const unsigned short*>(luma_row)[x] * (1.0f / 256.0f);
    u8 = reinterpret_cast<const unsigned short*>(chroma_row)[cx] * (1.0f / 256.0f);
    v8 = reinterpret_cast<const unsigned short*>(chroma_row)[cx + 1] * (1.0f / 256.0f);
  } else {
    y8 = luma_row[x];
    u8 = chroma_row[cx];
    v8 = chroma_row[cx + 1];
  }
  const float Y = (y8 - y_offset) * y_scale;
  const float cb = (u8 - 128.0f) * c_scale;
  const float cr = (v8 - 128.0f) * c_scale;
  const float rgb[3] = {Y + rv * cr, Y + gu * cb + gv * cr, Y + bu * cb};

  const size_t pixel = static_cast<size_t>(y) * width + x;
  const size_t plane = static_cast<size_t>(width) * height;
  for (int c = 0; c < 3; ++c) {
    const float v = fminf(fmaxf(rgb[c], 0.0f), 255.0f);
    const size_t at = layout == 0 ? pixel * 3 + c : c * plane + pixel;
    if (dtype == 0) {
      static_cast<unsigned char*>(dst)[at] = static_cast<unsigned char>(v + 0.5f);
    } else {
      static_cast<float*>(dst)[at] = v * (1.0f / 255.0f);
    }
  }
}

// uint8 RGB to float32 in [0, 1] (the loader's default output), one thread per value. A true
// division, as the CPU path does it, so both paths give the same floats (nvcc's default
// -prec-div=true rounds it correctly).
extern "C" __global__ void rs_u8_to_unit_f32(const unsigned char* src, float* dst,
                                             long long count) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) dst[i] = static_cast<float>(src[i]) / 255.0f;
}
