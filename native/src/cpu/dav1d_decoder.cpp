#include "cpu/dav1d_decoder.hpp"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "core/errors.hpp"
#include "cpu/color_convert.hpp"

namespace rs {
namespace {

// Corrupt headers can announce absurd sizes; cap what one picture may allocate (8K UHD).
constexpr unsigned kFrameSizeLimit = 8192u * 8192u;

int chroma_of(Dav1dPixelLayout layout) {
  switch (layout) {
    case DAV1D_PIXEL_LAYOUT_I420:
      return RS_CHROMA_420;
    case DAV1D_PIXEL_LAYOUT_I422:
      return RS_CHROMA_422;
    case DAV1D_PIXEL_LAYOUT_I444:
      return RS_CHROMA_444;
    default:
      return 0;  // monochrome: not supported by the converter
  }
}

int matrix_of(Dav1dMatrixCoefficients m) {
  switch (m) {
    case DAV1D_MC_BT709:
      return RS_MATRIX_BT709;
    case DAV1D_MC_BT470BG:
    case DAV1D_MC_BT601:
      return RS_MATRIX_BT601;
    case DAV1D_MC_BT2020_NCL:
      return RS_MATRIX_BT2020;
    default:
      return 0;
  }
}

}  // namespace

void Dav1dDecoder::log_callback(void* cookie, const char* format, va_list args) {
  auto* self = static_cast<Dav1dDecoder*>(cookie);
  char buffer[512];
  vsnprintf(buffer, sizeof buffer, format, args);
  self->last_log_ = buffer;
  while (!self->last_log_.empty() &&
         (self->last_log_.back() == '\n' || self->last_log_.back() == '\r')) {
    self->last_log_.pop_back();
  }
}

Dav1dDecoder::Dav1dDecoder(int threads, int max_frame_delay) : lib_(Dav1dLibrary::get()) {
  if (!lib_) throw LibraryUnavailable(Dav1dLibrary::unavailable_reason());
  if (threads < 0) throw InvalidArgument("negative dav1d thread count");
  if (max_frame_delay < 0) throw InvalidArgument("negative dav1d frame delay");
  Dav1dSettings settings;
  lib_->default_settings(&settings);
  settings.n_threads = threads;
  // 1 = low latency: each picture comes out right after its packet, so random access never
  // decodes frames past its target; 0 = dav1d's automatic frame pipelining.
  settings.max_frame_delay = max_frame_delay;
  settings.frame_size_limit = kFrameSizeLimit;
  settings.logger.cookie = this;
  settings.logger.callback = &Dav1dDecoder::log_callback;
  int rc = lib_->open(&ctx_, &settings);
  if (rc < 0) fail("dav1d_open failed", rc);
}

Dav1dDecoder::~Dav1dDecoder() {
  flush();
  if (ctx_) lib_->close(&ctx_);
}

void Dav1dDecoder::fail(const std::string& what, int rc) const {
  std::string message = what + " (" + std::strerror(-rc) + ")";
  if (!last_log_.empty()) message += ": " + last_log_;
  if (rc == -ENOMEM) throw OutOfMemory(message);
  throw CorruptData(message);
}

bool Dav1dDecoder::take_picture() {
  Dav1dPicture picture;
  std::memset(&picture, 0, sizeof picture);
  int rc = lib_->get_picture(ctx_, &picture);
  if (rc == DAV1D_ERR(EAGAIN)) return false;
  if (rc < 0) fail("AV1 picture decoding failed", rc);
  queue_.push_back(picture);
  return true;
}

void Dav1dDecoder::send(const uint8_t* data, int size, int64_t pts) {
  if (!data || size <= 0) throw InvalidArgument("empty AV1 packet");
  Dav1dData in;
  std::memset(&in, 0, sizeof in);
  uint8_t* buffer = lib_->data_create(&in, static_cast<size_t>(size));
  if (!buffer) throw OutOfMemory("dav1d_data_create failed");
  std::memcpy(buffer, data, static_cast<size_t>(size));
  in.m.timestamp = pts;
  last_log_.clear();
  // Exactly one get_picture per send_data, as FFmpeg's libdav1d wrapper does. dav1d treats a
  // second get_picture without a send in between as a drain: with frame threading it waits for
  // every frame in flight, so looping until EAGAIN here would serialise the frame threads
  // (measured: 290 instead of 343 frames/s with 2 threads). The pictures a frame pipeline holds
  // back come out with the following packets, or through drain() at the end.
  // send_data answers EAGAIN while an earlier packet is still being parsed and its picture waits
  // to be taken out: take it, then send again.
  while (in.sz > 0) {
    int rc = lib_->send_data(ctx_, &in);
    if (rc < 0 && rc != DAV1D_ERR(EAGAIN)) {
      lib_->data_unref(&in);
      fail("AV1 packet rejected", rc);
    }
    try {
      // EAGAIN from both calls would spin: the second get_picture waits for a frame thread.
      if (!take_picture() && rc == DAV1D_ERR(EAGAIN)) take_picture();
    } catch (...) {
      lib_->data_unref(&in);
      throw;
    }
  }
  lib_->data_unref(&in);
}

void Dav1dDecoder::drain() {
  // From the second get_picture without a send on, dav1d hands out every picture it still holds
  // (waiting for the frame threads) and then EAGAIN.
  take_picture();
  while (take_picture()) {
  }
}

bool Dav1dDecoder::next(PictureInfo& info) {
  if (has_current_) {
    lib_->picture_unref(&current_);
    has_current_ = false;
  }
  if (queue_.empty()) return false;
  current_ = queue_.front();
  queue_.pop_front();
  has_current_ = true;
  info.pts = current_.m.timestamp;
  info.width = current_.p.w;
  info.height = current_.p.h;
  info.chroma = chroma_of(current_.p.layout);
  info.bit_depth = current_.p.bpc;
  info.matrix = current_.seq_hdr ? matrix_of(current_.seq_hdr->mtrx) : 0;
  info.full_range = current_.seq_hdr && current_.seq_hdr->color_range;
  return true;
}

void Dav1dDecoder::convert_current(int matrix, bool full_range, uint8_t* dst, int layout) const {
  if (!has_current_) throw InvalidArgument("no current AV1 picture");
  if (current_.p.bpc != 8) {
    throw Unsupported("AV1 with " + std::to_string(current_.p.bpc) +
                      "-bit samples is not supported (8-bit only)");
  }
  const int chroma = chroma_of(current_.p.layout);
  if (chroma == 0) throw Unsupported("monochrome AV1 is not supported");
  YuvPlanes planes{static_cast<const uint8_t*>(current_.data[0]),
                   static_cast<int>(current_.stride[0]),
                   static_cast<const uint8_t*>(current_.data[1]),
                   static_cast<int>(current_.stride[1]),
                   static_cast<const uint8_t*>(current_.data[2]),
                   static_cast<int>(current_.stride[1]),
                   current_.p.w,
                   current_.p.h,
                   chroma};
  convert_yuv8_to_rgb(planes, matrix, full_range, dst, layout);
}

void Dav1dDecoder::current_planes(int64_t* out) const {
  if (!has_current_) throw InvalidArgument("no current AV1 picture");
  for (int i = 0; i < 3; ++i) out[i] = reinterpret_cast<intptr_t>(current_.data[i]);
  out[3] = current_.stride[0];
  out[4] = current_.stride[1];
  out[5] = current_.p.w;
  out[6] = current_.p.h;
  out[7] = chroma_of(current_.p.layout);
  out[8] = current_.p.bpc;
}

void Dav1dDecoder::flush() {
  if (has_current_) {
    lib_->picture_unref(&current_);
    has_current_ = false;
  }
  for (auto& picture : queue_) lib_->picture_unref(&picture);
  queue_.clear();
  if (ctx_) lib_->flush(ctx_);
}

}  // namespace rs
