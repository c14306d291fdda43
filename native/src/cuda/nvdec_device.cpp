#include "cuda/nvdec_device.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "core/errors.hpp"
#include "robostream/robostream.h"

namespace rs {
namespace {

// A worker waits this long for a free NVDEC session before giving up with an error: long enough
// for other workers to finish their calls, short enough that a mis-sized configuration is loud.
constexpr auto kSessionWait = std::chrono::seconds(60);

std::string to_hex(unsigned int value) {
  char text[16];
  std::snprintf(text, sizeof text, "%x", value);
  return text;
}

const CuvidFunctions& cuvid_of(const CudaDriver& driver) {
  if (!driver.cuvid()) throw LibraryUnavailable(driver.nvdec_unavailable_reason());
  return *driver.cuvid();
}

}  // namespace

cudaVideoCodec nvdec_codec(int rs_codec) {
  switch (rs_codec) {
    case RS_CODEC_H264:
      return cudaVideoCodec_H264;
    case RS_CODEC_HEVC:
      return cudaVideoCodec_HEVC;
    case RS_CODEC_AV1:
      return cudaVideoCodec_AV1;
    case RS_CODEC_VP9:
      return cudaVideoCodec_VP9;
    case RS_CODEC_MPEG4:
      return cudaVideoCodec_MPEG4;
    default:
      throw Unsupported("no NVDEC decoder for codec " + std::to_string(rs_codec));
  }
}

const char* nvdec_codec_name(cudaVideoCodec codec) {
  switch (codec) {
    case cudaVideoCodec_H264:
      return "H.264";
    case cudaVideoCodec_HEVC:
      return "HEVC";
    case cudaVideoCodec_AV1:
      return "AV1";
    case cudaVideoCodec_VP9:
      return "VP9";
    case cudaVideoCodec_MPEG4:
      return "MPEG-4";
    default:
      return "this codec";
  }
}

int NvdecDevice::session_limit() {
  static const int limit = [] {
    const char* text = std::getenv("ROBOSTREAM_NVDEC_SESSIONS");
    if (!text || !*text) return 8;
    char* end = nullptr;
    long v = std::strtol(text, &end, 10);
    return (end && *end == '\0' && v > 0 && v <= 1024) ? static_cast<int>(v) : 8;
  }();
  return limit;
}

std::shared_ptr<NvdecDevice> NvdecDevice::get(int device) {
  static std::mutex registry_mutex;
  // Never destroyed: decoders may be closed from Cleaner threads during JVM shutdown.
  static auto* registry = new std::map<int, std::shared_ptr<NvdecDevice>>();
  std::lock_guard<std::mutex> lock(registry_mutex);
  auto it = registry->find(device);
  if (it != registry->end()) return it->second;
  std::shared_ptr<NvdecDevice> created(new NvdecDevice(device));
  registry->emplace(device, created);
  return created;
}

NvdecDevice::NvdecDevice(int device)
    : device_(device), memory_(std::make_shared<CudaMemoryResource>(device)) {
  const CudaDriver& d = memory_->driver();
  const CuvidFunctions& cuvid = cuvid_of(d);
  char name[256] = {0};
  CUdevice handle = 0;
  d.check(d.cu().cuDeviceGet(&handle, device), "cuDeviceGet");
  if (d.cu().cuDeviceGetName(name, sizeof name - 1, handle) == CUDA_SUCCESS) name_ = name;
  kernel_ = std::make_unique<ColourKernel>(d, memory_->context());
  d.check(cuvid.cuvidCtxLockCreate(&lock_, memory_->context()), "cuvidCtxLockCreate");
}

const CUVIDDECODECAPS& NvdecDevice::caps(cudaVideoCodec codec, cudaVideoChromaFormat chroma,
                                         int bit_depth) {
  // Called with mutex_ held.
  auto key = std::make_tuple(static_cast<int>(codec), static_cast<int>(chroma), bit_depth);
  auto it = caps_.find(key);
  if (it != caps_.end()) return it->second;
  CUVIDDECODECAPS c;
  std::memset(&c, 0, sizeof c);
  c.eCodecType = codec;
  c.eChromaFormat = chroma;
  c.nBitDepthMinus8 = static_cast<unsigned int>(bit_depth - 8);
  const CuvidFunctions& cuvid = cuvid_of(driver());
  if (!cuvid.cuvidGetDecoderCaps) {
    // Drivers before 9.x lack the query: assume the basic codecs decode and let creation fail.
    c.bIsSupported = 1;
    c.nMaxWidth = c.nMaxHeight = 4096;
    c.nMaxMBCount = (4096 / 16) * (4096 / 16);
    c.nOutputFormatMask = (1u << cudaVideoSurfaceFormat_NV12) | (1u << cudaVideoSurfaceFormat_P016);
  } else {
    ScopedContext scope(driver(), context());
    driver().check(cuvid.cuvidGetDecoderCaps(&c), "cuvidGetDecoderCaps");
  }
  return caps_.emplace(key, c).first->second;
}

std::string NvdecDevice::unsupported_reason(cudaVideoCodec codec, cudaVideoChromaFormat chroma,
                                            int bit_depth, unsigned int width,
                                            unsigned int height) {
  std::lock_guard<std::mutex> lock(mutex_);
  const CUVIDDECODECAPS& c = caps(codec, chroma, bit_depth);
  const std::string where =
      "NVDEC of cuda:" + std::to_string(device_) + (name_.empty() ? "" : " (" + name_ + ")");
  const std::string what =
      std::string(nvdec_codec_name(codec)) + " " + std::to_string(bit_depth) + "-bit";
  if (!c.bIsSupported) {
    std::string reason = where + " cannot decode " + what;
    if (codec == cudaVideoCodec_AV1) reason += " (A100, H100 and H200 have no AV1 decoder)";
    return reason;
  }
  const unsigned int mbs = ((width + 15) / 16) * ((height + 15) / 16);
  if (width > c.nMaxWidth || height > c.nMaxHeight || (c.nMaxMBCount && mbs > c.nMaxMBCount) ||
      width < c.nMinWidth || height < c.nMinHeight) {
    return where + " cannot decode " + what + " at " + std::to_string(width) + "x" +
           std::to_string(height) + " (supported " + std::to_string(c.nMinWidth) + "x" +
           std::to_string(c.nMinHeight) + " to " + std::to_string(c.nMaxWidth) + "x" +
           std::to_string(c.nMaxHeight) + ")";
  }
  if (chroma == cudaVideoChromaFormat_420 && !pick_surface_format(bit_depth, c.nOutputFormatMask)) {
    return where + " cannot output " + what + " as NV12 or P016 (output formats 0x" +
           to_hex(c.nOutputFormatMask) + "), the surfaces robostream's colour kernel reads";
  }
  return {};
}

void NvdecDevice::apply_display_area(NvdecLease& lease, const CUVIDEOFORMAT& format) {
  lease.coded_width = format.coded_width;
  lease.coded_height = format.coded_height;
  lease.display_left = format.display_area.left;
  lease.display_top = format.display_area.top;
  lease.target_width =
      static_cast<unsigned int>(format.display_area.right - format.display_area.left);
  lease.target_height =
      static_cast<unsigned int>(format.display_area.bottom - format.display_area.top);
}

std::unique_ptr<NvdecLease> NvdecDevice::create(const CUVIDEOFORMAT& format, const NvdecKey& key,
                                                CodedSize max_size) {
  std::optional<cudaVideoSurfaceFormat> surface_format;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    surface_format = pick_surface_format(
        key.bit_depth, caps(key.codec, key.chroma, key.bit_depth).nOutputFormatMask);
  }
  if (!surface_format) {
    throw Unsupported(unsupported_reason(key.codec, key.chroma, key.bit_depth, format.coded_width,
                                         format.coded_height));
  }
  auto lease = std::make_unique<NvdecLease>();
  lease->key = key;
  apply_display_area(*lease, format);
  lease->max_width = max_size.width;
  lease->max_height = max_size.height;
  lease->surface_format = *surface_format;
  CUVIDDECODECREATEINFO info;
  std::memset(&info, 0, sizeof info);
  info.ulWidth = format.coded_width;
  info.ulHeight = format.coded_height;
  info.ulNumDecodeSurfaces = key.surfaces;
  info.CodecType = key.codec;
  info.ChromaFormat = key.chroma;
  info.ulCreationFlags = cudaVideoCreate_PreferCUVID;
  info.bitDepthMinus8 = static_cast<unsigned long>(key.bit_depth - 8);
  info.ulMaxWidth = max_size.width;
  info.ulMaxHeight = max_size.height;
  info.display_area.left = static_cast<short>(format.display_area.left);
  info.display_area.top = static_cast<short>(format.display_area.top);
  info.display_area.right = static_cast<short>(format.display_area.right);
  info.display_area.bottom = static_cast<short>(format.display_area.bottom);
  info.OutputFormat = lease->surface_format;
  info.DeinterlaceMode = format.progressive_sequence ? cudaVideoDeinterlaceMode_Weave
                                                     : cudaVideoDeinterlaceMode_Adaptive;
  info.ulTargetWidth = lease->target_width;
  info.ulTargetHeight = lease->target_height;
  info.ulNumOutputSurfaces = 2;
  info.vidLock = lock_;
  driver().check(cuvid_of(driver()).cuvidCreateDecoder(&lease->decoder, &info),
                 "cuvidCreateDecoder");
  return lease;
}

std::unique_ptr<NvdecLease> NvdecDevice::acquire(const CUVIDEOFORMAT& format, unsigned int surfaces,
                                                 CodedSize max_size) {
  NvdecKey key{format.codec, format.chroma_format, format.bit_depth_luma_minus8 + 8, surfaces};
  std::unique_ptr<NvdecLease> reused;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    const int limit = session_limit();
    if (!session_freed_.wait_for(lock, kSessionWait, [&] { return active_ < limit; })) {
      throw Unsupported("all " + std::to_string(limit) +
                        " NVDEC sessions of cuda:" + std::to_string(device_) +
                        " stayed in use for 60 s; use fewer decoding "
                        "workers per GPU or raise ROBOSTREAM_NVDEC_SESSIONS");
    }
    for (auto it = idle_.rbegin(); it != idle_.rend(); ++it) {
      NvdecLease& candidate = **it;
      if (!(candidate.key < key) && !(key < candidate.key) &&
          format.coded_width <= candidate.max_width &&
          format.coded_height <= candidate.max_height) {
        reused = std::move(*it);
        idle_.erase(std::next(it).base());
        break;
      }
    }
    active_++;
  }
  try {
    if (!reused) {
      auto lease = create(format, key, max_size);
      std::lock_guard<std::mutex> lock(mutex_);
      stats_.created++;
      return lease;
    }
    const bool same = reused->coded_width == format.coded_width &&
                      reused->coded_height == format.coded_height &&
                      reused->display_left == format.display_area.left &&
                      reused->display_top == format.display_area.top &&
                      static_cast<int>(reused->target_width) ==
                          format.display_area.right - format.display_area.left &&
                      static_cast<int>(reused->target_height) ==
                          format.display_area.bottom - format.display_area.top;
    if (!same) {
      apply_display_area(*reused, format);
      CUVIDRECONFIGUREDECODERINFO r;
      std::memset(&r, 0, sizeof r);
      r.ulWidth = format.coded_width;
      r.ulHeight = format.coded_height;
      r.ulTargetWidth = reused->target_width;
      r.ulTargetHeight = reused->target_height;
      r.ulNumDecodeSurfaces = surfaces;
      r.display_area.left = static_cast<short>(format.display_area.left);
      r.display_area.top = static_cast<short>(format.display_area.top);
      r.display_area.right = static_cast<short>(format.display_area.right);
      r.display_area.bottom = static_cast<short>(format.display_area.bottom);
      driver().check(cuvid_of(driver()).cuvidReconfigureDecoder(reused->decoder, &r),
                     "cuvidReconfigureDecoder");
    }
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.reused++;
    if (!same) stats_.reconfigured++;
    return reused;
  } catch (...) {
    if (reused) cuvid_of(driver()).cuvidDestroyDecoder(reused->decoder);
    std::lock_guard<std::mutex> lock(mutex_);
    active_--;
    session_freed_.notify_one();
    throw;
  }
}

void NvdecDevice::release(std::unique_ptr<NvdecLease> lease) noexcept {
  if (!lease) return;
  std::unique_ptr<NvdecLease> evicted;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    active_--;
    idle_.push_back(std::move(lease));
    // Idle decoders hold surfaces in device memory: keep at most one per session.
    if (static_cast<int>(idle_.size()) > session_limit()) {
      evicted = std::move(idle_.front());
      idle_.erase(idle_.begin());
    }
  }
  session_freed_.notify_one();
  if (evicted && driver().cuvid()) {
    // Destroyed even when no context can be made current (the SDK samples destroy decoders
    // before pushing one): a decoder kept alive would hold its surfaces in device memory.
    const bool pushed = driver().cu().cuCtxPushCurrent(context()) == CUDA_SUCCESS;
    driver().cuvid()->cuvidDestroyDecoder(evicted->decoder);
    if (pushed) {
      CUcontext ignored = nullptr;
      driver().cu().cuCtxPopCurrent(&ignored);
    }
  }
}

NvdecPoolStats NvdecDevice::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  NvdecPoolStats s = stats_;
  s.active = active_;
  s.idle = static_cast<int64_t>(idle_.size());
  return s;
}

}  // namespace rs
