// One NVDEC decoding session for one video stream: the cuvid parser (sequence / decode / display
// callbacks) fed with demuxed packets (H.264/HEVC in Annex-B, AV1 as OBUs, one picture per
// packet), a pooled NVDEC decoder from NvdecDevice, and the colour kernel that writes displayed
// pictures into device batch slots on the session's own stream.
//
// Contract with the caller (VideoDecoder's decode loop): after each send(), take out every
// displayed picture (next(), and convert_current() for the ones it wants) before the next send().
// A displayed picture's surface goes back to NVDEC once the parser moves on; a picture whose
// surface was reused before it was converted is reported as an error, never returned stale
// (DisplayQueue), and so is a picture NVDEC decoded with errors, concealed or not.
// Not thread-safe: one per worker thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/live_objects.hpp"
#include "cuda/display_queue.hpp"
#include "cuda/nvdec_device.hpp"

namespace rs {

struct NvdecPicture {
  int64_t pts;
  int width;
  int height;
  int bit_depth;
  int matrix;  // RS_MATRIX_*, 0 when the stream leaves it unspecified
  bool full_range;
};

class NvdecDecoder {
 public:
  // low_latency: pictures are displayed right after their packet (random access); otherwise the
  // parser may delay display by a few pictures to overlap decoding (sequential reads).
  NvdecDecoder(int device, int rs_codec, bool low_latency);
  ~NvdecDecoder();
  NvdecDecoder(const NvdecDecoder&) = delete;
  NvdecDecoder& operator=(const NvdecDecoder&) = delete;

  void send(const uint8_t* data, int size, int64_t pts);
  // End of input: every picture still held is displayed.
  void drain();
  bool next(NvdecPicture& picture);
  // Converts the current picture into a device slot of `dst_bytes` (at least 3*width*height
  // values of RS_DTYPE_*) with the colour kernel on stream(); the slot is written when the call
  // returns.
  void convert_current(void* dst, int64_t dst_bytes, int out_width, int out_height, int layout,
                       int dtype, int matrix, bool full_range);
  // Drops parser state and queued pictures (after a seek) and gives the NVDEC decoder back. When
  // it fails, the next send() creates the parser again.
  void flush();
  CUstream stream() const { return stream_; }
  const NvdecDevice& device() const { return *device_; }

 private:
  static int CUDAAPI on_sequence(void* self, CUVIDEOFORMAT* format);
  static int CUDAAPI on_decode(void* self, CUVIDPICPARAMS* picture);
  static int CUDAAPI on_display(void* self, CUVIDPARSERDISPINFO* info);
  // `format` is the parser's pointer: for AV1 it may carry the sequence header (max_coded_size).
  int handle_sequence(const CUVIDEOFORMAT* format);
  void create_parser();
  void parse(const CUVIDSOURCEDATAPACKET& packet);
  [[noreturn]] void fail_from_callback();

  LiveObject live_;
  std::shared_ptr<NvdecDevice> device_;
  const CuvidFunctions* cuvid_;
  cudaVideoCodec codec_;
  bool low_latency_;
  CUstream stream_ = nullptr;
  CUvideoparser parser_ = nullptr;
  std::unique_ptr<NvdecLease> lease_;
  CUVIDEOFORMAT format_{};
  DisplayQueue pictures_;
  std::string callback_error_;
  int callback_error_code_ = 0;
};

}  // namespace rs
