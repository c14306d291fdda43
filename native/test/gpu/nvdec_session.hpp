// Test-side driver of one NVDEC session through the C API: feeds fixture packets, takes out
// displayed pictures after every packet (the decoder's contract), and converts the wanted ones
// into rows of CUDA device batches.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "nvdec_fixtures.hpp"

namespace rstest {

class NvdecSession {
 public:
  NvdecSession(const FixtureStream& stream, bool low_latency);
  ~NvdecSession();
  NvdecSession(const NvdecSession&) = delete;
  NvdecSession& operator=(const NvdecSession&) = delete;

  // Seeks to the GOP of display frame `frame` and decodes until it is displayed; converts it into
  // `device_slot` (uint8 HWC). Fails when the frame never comes out.
  void decode_frame(int frame, int64_t device_slot);
  // Decodes the whole stream in order; `on_picture(pts)` returns the slot to convert into (0:
  // skip). Returns the number of pictures displayed.
  int decode_all(const std::function<int64_t(int64_t pts)>& on_picture);
  int64_t stream() const;

 private:
  bool take_pictures(int64_t target_pts, int64_t slot);
  // Bytes of one uint8 RGB frame of the fixture: what a slot holds.
  int64_t frame_bytes() const;

  const FixtureStream& fixture_;
  int64_t decoder_ = 0;
};

// An RS_DEVICE_CUDA batch of `rows` uint8 HWC frames of the fixture's size, and its host copy.
struct DeviceRows {
  DeviceRows(int64_t pool, const FixtureStream& stream, int rows);
  ~DeviceRows();
  int64_t slot(int row) const;
  // Exports the batch (event on `stream`), copies it to the host and returns the frames.
  std::vector<uint8_t> to_host(int64_t stream, int64_t host_pool);

  int64_t batch = 0;
  int rows;
  size_t frame_bytes;
};

}  // namespace rstest
