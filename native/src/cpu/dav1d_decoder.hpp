// One dav1d decoding session. Not thread-safe: one per worker thread.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "core/live_objects.hpp"
#include "cpu/dav1d_library.hpp"

namespace rs {

struct PictureInfo {
  int64_t pts;
  int width;
  int height;
  int chroma;  // RS_CHROMA_*
  int bit_depth;
  int matrix;  // RS_MATRIX_* or 0 when the stream leaves it unspecified
  bool full_range;
};

class Dav1dDecoder {
 public:
  Dav1dDecoder(int threads, int max_frame_delay);
  ~Dav1dDecoder();
  Dav1dDecoder(const Dav1dDecoder&) = delete;
  Dav1dDecoder& operator=(const Dav1dDecoder&) = delete;

  // Copies the packet and decodes it; pictures it completes are queued. Throws CorruptData.
  void send(const uint8_t* data, int size, int64_t pts);
  // Queues every picture still held inside dav1d.
  void drain();
  // Makes the next queued picture current; false when the queue is empty.
  bool next(PictureInfo& info);
  // Converts the current picture to RGB24. Throws when there is none or it is not 8-bit.
  void convert_current(int matrix, bool full_range, uint8_t* dst, int layout) const;
  // See rs_av1_current_planes. Throws when there is no current picture.
  void current_planes(int64_t* out) const;
  void flush();

 private:
  // One dav1d_get_picture: queues the picture it returns; false on EAGAIN. Throws CorruptData.
  bool take_picture();
  [[noreturn]] void fail(const std::string& what, int rc) const;
  static void log_callback(void* cookie, const char* format, va_list args);

  LiveObject live_;
  const Dav1dLibrary* lib_;
  Dav1dContext* ctx_ = nullptr;
  std::deque<Dav1dPicture> queue_;
  Dav1dPicture current_{};
  bool has_current_ = false;
  std::string last_log_;
};

}  // namespace rs
