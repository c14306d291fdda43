#include "cuda/nvdec_decoder.hpp"

#include <cstring>

#include "core/errors.hpp"
#include "cuda/nvdec_rules.hpp"
#include "robostream/robostream.h"

namespace rs {
namespace {

// Surfaces beyond the stream's minimum: room for the display queue and for pictures the caller
// has not taken out yet, so the parser need not reuse a displayed surface right away.
constexpr unsigned int kExtraSurfaces = 4;

int matrix_of(unsigned char coefficients) {
  switch (coefficients) {
    case 1:
      return RS_MATRIX_BT709;
    case 5:
    case 6:
      return RS_MATRIX_BT601;
    case 9:
      return RS_MATRIX_BT2020;
    default:
      return 0;
  }
}

}  // namespace

NvdecDecoder::NvdecDecoder(int device, int rs_codec, bool low_latency)
    : device_(NvdecDevice::get(device)),
      cuvid_(device_->driver().cuvid()),
      codec_(nvdec_codec(rs_codec)),
      low_latency_(low_latency) {
  ScopedContext scope(device_->driver(), device_->context());
  device_->driver().check(device_->driver().cu().cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING),
                          "cuStreamCreate");
  try {
    create_parser();
  } catch (...) {
    device_->driver().cu().cuStreamDestroy(stream_);
    throw;
  }
}

NvdecDecoder::~NvdecDecoder() {
  // The parser needs no context (the SDK samples destroy theirs before pushing one), and the
  // NVDEC decoder goes back to the device's pool whatever the driver says here: a session the
  // pool never gets back would make every later worker wait for it, and after 60 s fail.
  if (parser_) cuvid_->cuvidDestroyVideoParser(parser_);
  const CudaDriver& driver = device_->driver();
  if (driver.cu().cuCtxPushCurrent(device_->context()) == CUDA_SUCCESS) {
    driver.cu().cuStreamSynchronize(stream_);
    driver.cu().cuStreamDestroy(stream_);
    CUcontext ignored = nullptr;
    driver.cu().cuCtxPopCurrent(&ignored);
  }
  device_->release(std::move(lease_));
}

void NvdecDecoder::create_parser() {
  CUVIDPARSERPARAMS params;
  std::memset(&params, 0, sizeof params);
  params.CodecType = codec_;
  params.ulMaxNumDecodeSurfaces = 1;  // replaced by the sequence callback's answer
  params.ulClockRate = 0;             // timestamps pass through unchanged
  params.ulErrorThreshold = 0;        // never decode a picture the parser found corrupt
  params.ulMaxDisplayDelay = low_latency_ ? 0 : 2;
  params.pUserData = this;
  params.pfnSequenceCallback = &NvdecDecoder::on_sequence;
  params.pfnDecodePicture = &NvdecDecoder::on_decode;
  params.pfnDisplayPicture = &NvdecDecoder::on_display;
  device_->driver().check(cuvid_->cuvidCreateVideoParser(&parser_, &params),
                          "cuvidCreateVideoParser");
}

void NvdecDecoder::fail_from_callback() {
  const std::string message = callback_error_;
  const int code = callback_error_code_;
  callback_error_.clear();
  callback_error_code_ = 0;
  throw Error(code, message);
}

void NvdecDecoder::parse(const CUVIDSOURCEDATAPACKET& packet) {
  ScopedContext scope(device_->driver(), device_->context());
  if (!parser_) create_parser();  // a flush that failed after dropping the old one
  CUresult rc = cuvid_->cuvidParseVideoData(parser_, const_cast<CUVIDSOURCEDATAPACKET*>(&packet));
  if (!callback_error_.empty()) fail_from_callback();
  if (rc != CUDA_SUCCESS) {
    throw CorruptData("NVDEC parser rejected the packet: CUresult " +
                      std::to_string(static_cast<int>(rc)));
  }
}

void NvdecDecoder::send(const uint8_t* data, int size, int64_t pts) {
  if (!data || size <= 0) throw InvalidArgument("empty packet");
  CUVIDSOURCEDATAPACKET packet;
  std::memset(&packet, 0, sizeof packet);
  packet.flags = CUVID_PKT_TIMESTAMP | CUVID_PKT_ENDOFPICTURE;
  packet.payload_size = static_cast<unsigned long>(size);
  packet.payload = data;
  packet.timestamp = pts;
  parse(packet);
}

void NvdecDecoder::drain() {
  CUVIDSOURCEDATAPACKET packet;
  std::memset(&packet, 0, sizeof packet);
  packet.flags = CUVID_PKT_ENDOFSTREAM;
  parse(packet);
}

bool NvdecDecoder::next(NvdecPicture& picture) {
  if (!pictures_.take_next()) return false;
  picture.pts = pictures_.current().pts;
  picture.width = static_cast<int>(lease_ ? lease_->target_width : 0);
  picture.height = static_cast<int>(lease_ ? lease_->target_height : 0);
  picture.bit_depth = format_.bit_depth_luma_minus8 + 8;
  picture.matrix = matrix_of(format_.video_signal_description.matrix_coefficients);
  picture.full_range = format_.video_signal_description.video_full_range_flag != 0;
  return true;
}

void NvdecDecoder::convert_current(void* dst, int64_t dst_bytes, int out_width, int out_height,
                                   int layout, int dtype, int matrix, bool full_range) {
  const DisplayedPicture& picture = pictures_.convertible_current();
  if (!lease_) throw InvalidArgument("no NVDEC decoder for the current picture");
  ColourJob job;
  job.width = static_cast<int>(lease_->target_width);
  job.height = static_cast<int>(lease_->target_height);
  job.out_width = out_width;  // the picture's size, or a resize's (scaled by the kernel)
  job.out_height = out_height;
  job.sixteen_bit = lease_->surface_format == cudaVideoSurfaceFormat_P016;
  job.matrix = matrix;
  job.full_range = full_range;
  job.layout = layout;
  job.dtype = dtype;
  job.dst = dst;
  job.dst_bytes = dst_bytes;
  // The surface's geometry is known only once mapped: check the rest before mapping.
  job.pitch = static_cast<unsigned int>(job.width) * (job.sixteen_bit ? 2 : 1);
  job.surface_height = job.height;
  check_colour_job(job);

  const CudaDriver& driver = device_->driver();
  ScopedContext scope(driver, device_->context());
  CUVIDPROCPARAMS proc = proc_params_for(picture, stream_);
  CUdeviceptr surface = 0;
  unsigned int pitch = 0;
  driver.check(
      cuvid_->cuvidMapVideoFrame(lease_->decoder, picture.picture_index, &surface, &pitch, &proc),
      "cuvidMapVideoFrame64");
  try {
    // Mapping waits for the decode, so the status is final here (the SDK samples read it at the
    // same point). A driver that cannot tell (an error from the query) decodes as before.
    CUVIDGETDECODESTATUS status;
    std::memset(&status, 0, sizeof status);
    if (cuvid_->cuvidGetDecodeStatus(lease_->decoder, picture.picture_index, &status) ==
        CUDA_SUCCESS) {
      check_decode_status(status.decodeStatus, picture.pts);
    }
    job.surface = surface;
    job.pitch = pitch;
    // NVDEC aligns the luma height of its output surfaces to 2; chroma starts after that.
    job.surface_height = static_cast<int>((lease_->target_height + 1) & ~1u);
    device_->kernel().launch(job, stream_);
  } catch (...) {
    cuvid_->cuvidUnmapVideoFrame(lease_->decoder, surface);
    throw;
  }
  // The surface must stay mapped until the kernel has read it, and unmapping is not ordered on
  // the stream: wait for it first, as the Video Codec SDK samples do after their copies. (The
  // kernel takes microseconds; NVDEC decodes the next picture meanwhile.)
  CUresult done = driver.cu().cuStreamSynchronize(stream_);
  CUresult unmapped = cuvid_->cuvidUnmapVideoFrame(lease_->decoder, surface);
  driver.check(done, "cuStreamSynchronize (colour kernel)");
  driver.check(unmapped, "cuvidUnmapVideoFrame64");
}

void NvdecDecoder::flush() {
  pictures_.clear();
  if (parser_) {
    cuvid_->cuvidDestroyVideoParser(parser_);
    parser_ = nullptr;
  }
  ScopedContext scope(device_->driver(), device_->context());
  device_->driver().cu().cuStreamSynchronize(stream_);
  device_->release(std::move(lease_));
  create_parser();
}

// ------------------------------------------------------------------ parser callbacks
// They run inside cuvidParseVideoData on the caller's thread. No exception may cross the driver:
// each stores its error and returns 0, and parse() rethrows it.

int CUDAAPI NvdecDecoder::on_sequence(void* self, CUVIDEOFORMAT* format) {
  auto* decoder = static_cast<NvdecDecoder*>(self);
  try {
    return decoder->handle_sequence(format);
  } catch (const Error& e) {
    decoder->callback_error_ = e.what();
    decoder->callback_error_code_ = e.code();
  } catch (const std::exception& e) {
    decoder->callback_error_ = e.what();
    decoder->callback_error_code_ = RS_ERR_INTERNAL;
  }
  return 0;
}

int NvdecDecoder::handle_sequence(const CUVIDEOFORMAT* sequence) {
  const CUVIDEOFORMAT& format = *sequence;
  const int depth = format.bit_depth_luma_minus8 + 8;
  std::string reason = device_->unsupported_reason(format.codec, format.chroma_format, depth,
                                                   format.coded_width, format.coded_height);
  if (!reason.empty()) throw Unsupported(reason);
  if (format.chroma_format != cudaVideoChromaFormat_420) {
    throw Unsupported("NVDEC output of non-4:2:0 chroma is not supported by robostream");
  }
  const unsigned int surfaces = format.min_num_decode_surfaces + kExtraSurfaces;
  format_ = format;
  // Same stream parameters on a new GOP: keep the decoder. Anything else: swap it.
  if (lease_ && lease_->key.codec == format.codec && lease_->key.chroma == format.chroma_format &&
      lease_->key.bit_depth == depth && lease_->key.surfaces == surfaces &&
      lease_->coded_width == format.coded_width && lease_->coded_height == format.coded_height &&
      lease_->display_left == format.display_area.left &&
      lease_->display_top == format.display_area.top &&
      lease_->target_width ==
          static_cast<unsigned int>(format.display_area.right - format.display_area.left) &&
      lease_->target_height ==
          static_cast<unsigned int>(format.display_area.bottom - format.display_area.top)) {
    return static_cast<int>(surfaces);
  }
  // Pictures still waiting for conversion live in the surfaces of the decoder being given back
  // (or reconfigured): converting them afterwards would read another decoder's surface.
  pictures_.all_surfaces_replaced();
  device_->release(std::move(lease_));
  lease_ = device_->acquire(format, surfaces, max_coded_size(sequence));
  return static_cast<int>(surfaces);
}

int CUDAAPI NvdecDecoder::on_decode(void* self, CUVIDPICPARAMS* picture) {
  auto* decoder = static_cast<NvdecDecoder*>(self);
  if (!decoder->lease_) {
    // Keep the first error: a refused sequence header explains why no decoder exists.
    if (decoder->callback_error_.empty()) {
      decoder->callback_error_ = "NVDEC picture before any sequence header";
      decoder->callback_error_code_ = RS_ERR_CORRUPT_DATA;
    }
    return 0;
  }
  decoder->pictures_.surface_reused(picture->CurrPicIdx);
  CUresult rc = decoder->cuvid_->cuvidDecodePicture(decoder->lease_->decoder, picture);
  if (rc != CUDA_SUCCESS) {
    decoder->callback_error_ =
        "cuvidDecodePicture failed: CUresult " + std::to_string(static_cast<int>(rc));
    decoder->callback_error_code_ = RS_ERR_CORRUPT_DATA;
    return 0;
  }
  return 1;
}

int CUDAAPI NvdecDecoder::on_display(void* self, CUVIDPARSERDISPINFO* info) {
  auto* decoder = static_cast<NvdecDecoder*>(self);
  if (!info) return 1;  // end-of-stream notification
  decoder->pictures_.push(*info);
  return 1;
}

}  // namespace rs
