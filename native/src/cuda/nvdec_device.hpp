// Everything NVDEC keeps per GPU: the primary context (through CudaMemoryResource), the colour
// kernel, decoder capabilities cached per (codec, chroma, bit depth), and the pool of NVDEC
// decoder objects, reused (reconfigured rather than recreated) across files and bounded by the
// number of concurrent decode sessions (default 8: H100/H200 have 7 NVDEC engines and one
// session keeps one engine busy). Thread-safe; one instance per device for the whole process.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "cuda/colour_kernel.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/cuda_memory.hpp"
#include "cuda/nvdec_rules.hpp"

namespace rs {

// What a pooled decoder was created for; decoders are interchangeable within one key.
struct NvdecKey {
  cudaVideoCodec codec;
  cudaVideoChromaFormat chroma;
  int bit_depth;
  unsigned int surfaces;
  bool operator<(const NvdecKey& o) const {
    return std::tie(codec, chroma, bit_depth, surfaces) <
           std::tie(o.codec, o.chroma, o.bit_depth, o.surfaces);
  }
};

// One NVDEC decoder object on loan to a file's decoder; give it back with NvdecDevice::release.
struct NvdecLease {
  NvdecKey key;
  CUvideodecoder decoder = nullptr;
  unsigned int max_width = 0, max_height = 0;  // fixed at creation; reconfigure stays within
  cudaVideoSurfaceFormat surface_format = cudaVideoSurfaceFormat_NV12;  // NV12 or P016
  unsigned int coded_width = 0, coded_height = 0;
  unsigned int target_width = 0, target_height = 0;  // output surface = display area
  int display_left = 0, display_top = 0;
};

struct NvdecPoolStats {
  int64_t created;
  int64_t reused;        // leases served by an idle decoder of the same key
  int64_t reconfigured;  // of those, the ones that needed cuvidReconfigureDecoder
  int64_t active;
  int64_t idle;
};

class NvdecDevice {
 public:
  // The device's instance (created on first use). Throws LibraryUnavailable when CUDA, NVDEC or
  // the colour kernel is unavailable, InvalidArgument for a device that does not exist.
  static std::shared_ptr<NvdecDevice> get(int device);

  // Sessions per device: ROBOSTREAM_NVDEC_SESSIONS, else 8. Read once.
  static int session_limit();

  int device() const { return device_; }
  const CudaDriver& driver() const { return memory_->driver(); }
  CUcontext context() const { return memory_->context(); }
  std::shared_ptr<CudaMemoryResource> memory() const { return memory_; }
  const ColourKernel& kernel() const { return *kernel_; }
  const std::string& name() const { return name_; }

  // "" when NVDEC on this device decodes (codec, chroma, depth) at this size, else why not.
  std::string unsupported_reason(cudaVideoCodec codec, cudaVideoChromaFormat chroma, int bit_depth,
                                 unsigned int width, unsigned int height);

  // A decoder for `format` that can be reconfigured up to `max_size` (max_coded_size), waiting
  // while all sessions are in use (up to a bound, then Unsupported naming the limit). The
  // caller's context must be current.
  std::unique_ptr<NvdecLease> acquire(const CUVIDEOFORMAT& format, unsigned int surfaces,
                                      CodedSize max_size);
  void release(std::unique_ptr<NvdecLease> lease) noexcept;
  NvdecPoolStats stats() const;

 private:
  explicit NvdecDevice(int device);
  const CUVIDDECODECAPS& caps(cudaVideoCodec codec, cudaVideoChromaFormat chroma, int bit_depth);
  std::unique_ptr<NvdecLease> create(const CUVIDEOFORMAT& format, const NvdecKey& key,
                                     CodedSize max_size);
  static void apply_display_area(NvdecLease& lease, const CUVIDEOFORMAT& format);

  int device_;
  std::string name_;
  std::shared_ptr<CudaMemoryResource> memory_;
  std::unique_ptr<ColourKernel> kernel_;
  CUvideoctxlock lock_ = nullptr;

  mutable std::mutex mutex_;
  std::condition_variable session_freed_;
  std::map<std::tuple<int, int, int>, CUVIDDECODECAPS> caps_;
  std::vector<std::unique_ptr<NvdecLease>> idle_;  // most recently used last
  int active_ = 0;
  NvdecPoolStats stats_{};
};

// NVDEC's codec for an RS_CODEC_* value; throws Unsupported for codecs NVDEC has no decoder for.
cudaVideoCodec nvdec_codec(int rs_codec);
const char* nvdec_codec_name(cudaVideoCodec codec);

}  // namespace rs
