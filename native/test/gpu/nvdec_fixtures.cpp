#include "nvdec_fixtures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "robostream/robostream.h"
#include "test_support.hpp"

namespace rstest {
namespace {

bool file_exists(const std::string& path) {
  std::ifstream in(path);
  return in.good();
}

[[noreturn]] void missing(const std::string& what) {
  const char* required = std::getenv("ROBOSTREAM_REQUIRE_CUDA");
  if (required && std::strcmp(required, "1") == 0) throw Failure{"missing GPU fixture: " + what};
  throw Skipped{"missing GPU fixture " + what +
                " (scripts/tests/make-gpu-fixtures.sh DIR; "
                "ROBOSTREAM_GPU_FIXTURES=DIR)"};
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t");
  size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

}  // namespace

std::string gpu_fixture_dir() {
  const char* dir = std::getenv("ROBOSTREAM_GPU_FIXTURES");
  return dir ? dir : "";
}

int codec_of(const std::string& name) {
  if (name.rfind("h264", 0) == 0) return RS_CODEC_H264;
  if (name.rfind("hevc", 0) == 0) return RS_CODEC_HEVC;
  if (name.rfind("av1", 0) == 0) return RS_CODEC_AV1;
  throw Failure{"fixture of unknown codec: " + name};
}

FixtureStream load_fixture(const std::string& name) {
  const std::string dir = gpu_fixture_dir() + "/" + name;
  if (gpu_fixture_dir().empty() || !file_exists(dir + "/info.txt")) missing(dir);
  FixtureStream s;
  s.name = name;
  {
    std::ifstream info(dir + "/info.txt");
    info >> s.width >> s.height >> s.frames;
  }
  const bool ivf = codec_of(name) == RS_CODEC_AV1;
  const std::string ext = ivf ? "ivf" : name.substr(0, 4);
  std::ifstream stream(dir + "/stream." + ext, std::ios::binary);
  if (!stream) missing(dir + "/stream." + ext);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(stream)),
                             std::istreambuf_iterator<char>());
  // IVF (AV1): a 32-byte file header, then per frame a 12-byte header (size, pts) and the frame.
  size_t offset = ivf ? 32 : 0;
  std::ifstream listing(dir + "/packets.txt");
  std::string line;
  while (std::getline(listing, line)) {
    if (line.rfind("#tb 0:", 0) == 0) {
      std::string tb = trim(line.substr(6));
      s.tb_num = std::stoll(tb.substr(0, tb.find('/')));
      s.tb_den = std::stoll(tb.substr(tb.find('/') + 1));
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, ',')) fields.push_back(trim(field));
    if (fields.size() < 6) throw Failure{"bad packets.txt line: " + line};
    Packet p;
    p.pts = std::stoll(fields[2]);
    size_t size = static_cast<size_t>(std::stoll(fields[4]));
    p.key = fields.size() < 7 || fields[6].find("F=0x0") == std::string::npos;
    if (ivf) {
      if (offset + 12 > bytes.size()) throw Failure{"IVF stream ends early: " + dir};
      // The IVF muxer prepends a temporal delimiter OBU to each frame: its header has the size.
      uint32_t frame_size;
      std::memcpy(&frame_size, bytes.data() + offset, 4);
      if (frame_size < size) throw Failure{"IVF frame smaller than its packet: " + dir};
      size = frame_size;
      offset += 12;
    }
    if (offset + size > bytes.size()) throw Failure{"packets.txt runs past the stream: " + dir};
    p.data.assign(bytes.begin() + static_cast<long>(offset),
                  bytes.begin() + static_cast<long>(offset + size));
    offset += size;
    s.display_pts.push_back(p.pts);
    s.packets.push_back(std::move(p));
  }
  if (offset != bytes.size()) throw Failure{"packets.txt does not cover the stream: " + dir};
  std::sort(s.display_pts.begin(), s.display_pts.end());
  std::ifstream ref(dir + "/frames.rgb", std::ios::binary);
  if (ref) {
    s.reference.assign((std::istreambuf_iterator<char>(ref)), std::istreambuf_iterator<char>());
    if (s.reference.size() != static_cast<size_t>(s.frames) * s.width * s.height * 3) {
      throw Failure{"frames.rgb has the wrong size: " + dir};
    }
  }
  return s;
}

size_t FixtureStream::gop_start_for(int frame) const {
  const int64_t target = display_pts[static_cast<size_t>(frame)];
  size_t start = 0;
  for (size_t i = 0; i < packets.size(); ++i) {
    // A keyframe whose pts is past the target starts a later GOP (closed GOPs: every frame of a
    // GOP is displayed at or after its keyframe).
    if (packets[i].key && packets[i].pts <= target) start = i;
  }
  return start;
}

int pattern_frame_number(const uint8_t* hwc, int width) {
  int n = 0;
  for (int bit = 0; bit < 10; ++bit) {
    const int x = bit * 16 + 8;
    const int y = 20;
    if (hwc[(y * width + x) * 3 + 1] > 128) n |= 1 << bit;
  }
  return n;
}

double mean_abs_diff(const uint8_t* a, const uint8_t* b, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += std::abs(int(a[i]) - int(b[i]));
  return sum / static_cast<double>(n);
}

double psnr(const uint8_t* a, const uint8_t* b, size_t n) {
  double se = 0;
  for (size_t i = 0; i < n; ++i) {
    const double d = double(a[i]) - double(b[i]);
    se += d * d;
  }
  if (se == 0) return 99.0;
  return 10.0 * std::log10(255.0 * 255.0 / (se / static_cast<double>(n)));
}

}  // namespace rstest
