// Streams prepared on a CPU machine by scripts/tests/make-gpu-fixtures.sh: an Annex-B/OBU
// elementary stream cut into packets by ffmpeg's framecrc listing, plus (for exactness streams)
// every frame as decoded by robostream's CPU path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rstest {

struct Packet {
  int64_t pts;  // in the stream's time base
  bool key;
  std::vector<uint8_t> data;
};

struct FixtureStream {
  std::string name;
  int width = 0;
  int height = 0;
  int frames = 0;
  int64_t tb_num = 1, tb_den = 1;
  std::vector<Packet> packets;       // decode order
  std::vector<int64_t> display_pts;  // sorted: display order
  std::vector<uint8_t> reference;    // frames * width * height * 3, or empty

  const uint8_t* reference_frame(int frame) const {
    return reference.data() + static_cast<size_t>(frame) * width * height * 3;
  }
  // Index of the packet that starts the GOP holding display frame `frame` (closed GOPs).
  size_t gop_start_for(int frame) const;
};

// Directory of the fixtures: $ROBOSTREAM_GPU_FIXTURES (empty when unset).
std::string gpu_fixture_dir();
// Loads OUT_DIR/<name>; throws Skipped (or Failure under ROBOSTREAM_REQUIRE_CUDA=1) when absent.
FixtureStream load_fixture(const std::string& name);
int codec_of(const std::string& name);

// Frame number written by the identity pattern (10 bars, 16 px each) into an HWC frame.
int pattern_frame_number(const uint8_t* hwc, int width);
double mean_abs_diff(const uint8_t* a, const uint8_t* b, size_t n);
double psnr(const uint8_t* a, const uint8_t* b, size_t n);

}  // namespace rstest
