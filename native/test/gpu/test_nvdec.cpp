// NVDEC tests for a GPU machine (scripts/gpu-check.sh runs them with ROBOSTREAM_REQUIRE_CUDA=1;
// elsewhere each reports skipped). Fixtures come from scripts/tests/make-gpu-fixtures.sh and the
// reference frames from robostream's CPU decoding path.
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "arrow/abi.h"
#include "cuda/nvdec_device.hpp"
#include "nvdec_fixtures.hpp"
#include "nvdec_session.hpp"
#include "robostream/robostream.h"
#include "test_support.hpp"

using namespace rstest;

namespace {

// Our GPU kernel and the CPU path's converter round differently; frames must agree within this
// mean absolute difference per byte (the CPU converters agree with each other within 1.5).
constexpr double kMeanTolerance = 1.5;
constexpr double kMinPsnr = 38.0;

struct Pools {
  int64_t device = 0;
  int64_t host = 0;
  Pools() {
    RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CUDA, 0, &device), RS_OK);
    RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CPU, 0, &host), RS_OK);
  }
  ~Pools() {
    rs_pool_free(device);
    rs_pool_free(host);
  }
};

void check_frame(const FixtureStream& s, int frame, const uint8_t* actual) {
  const size_t n = static_cast<size_t>(s.width) * s.height * 3;
  const uint8_t* expected = s.reference_frame(frame);
  const double diff = mean_abs_diff(actual, expected, n);
  const double quality = psnr(actual, expected, n);
  if (pattern_frame_number(actual, s.width) != frame % 1024 || diff > kMeanTolerance ||
      quality < kMinPsnr) {
    throw Failure{s.name + ": frame " + std::to_string(frame) + " reads as frame " +
                  std::to_string(pattern_frame_number(actual, s.width)) + ", mean diff " +
                  std::to_string(diff) + ", PSNR " + std::to_string(quality) + " dB"};
  }
}

void shuffled_frames_match_reference(const std::string& name) {
  require_nvdec();
  const FixtureStream s = load_fixture(name);
  Pools pools;
  NvdecSession session(s, /*low_latency=*/true);
  std::vector<int> order(static_cast<size_t>(s.frames));
  for (int i = 0; i < s.frames; ++i) order[static_cast<size_t>(i)] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(17));
  // First and last frame, and a repeat, on top of the shuffle.
  order.push_back(0);
  order.push_back(s.frames - 1);
  order.push_back(order.front());
  const int rows = 8;
  for (size_t start = 0; start < order.size(); start += rows) {
    const int n = static_cast<int>(std::min<size_t>(rows, order.size() - start));
    DeviceRows batch(pools.device, s, n);
    for (int r = 0; r < n; ++r) session.decode_frame(order[start + r], batch.slot(r));
    std::vector<uint8_t> host = batch.to_host(session.stream(), pools.host);
    for (int r = 0; r < n; ++r)
      check_frame(s, order[start + r], host.data() + r * batch.frame_bytes);
  }
}

int display_index(const FixtureStream& s, int64_t pts) {
  auto it = std::lower_bound(s.display_pts.begin(), s.display_pts.end(), pts);
  if (it == s.display_pts.end() || *it != pts) throw Failure{"unknown pts " + std::to_string(pts)};
  return static_cast<int>(it - s.display_pts.begin());
}

// Decodes the whole fixture in order into 8-row batches and checks (or just counts) each frame.
int sequential_pass(const FixtureStream& s, NvdecSession& session, const Pools& pools, bool check) {
  std::vector<int> pending;
  std::unique_ptr<DeviceRows> batch;
  auto flush = [&] {
    if (!batch) return;
    std::vector<uint8_t> host = batch->to_host(session.stream(), pools.host);
    if (check) {
      for (size_t r = 0; r < pending.size(); ++r) {
        check_frame(s, pending[r], host.data() + r * batch->frame_bytes);
      }
    }
    batch.reset();
    pending.clear();
  };
  int displayed = session.decode_all([&](int64_t pts) -> int64_t {
    // decode_all converts into the returned slot before asking again: a full batch is complete.
    if (pending.size() == 8) flush();
    if (!batch) batch = std::make_unique<DeviceRows>(pools.device, s, 8);
    pending.push_back(display_index(s, pts));
    return batch->slot(static_cast<int>(pending.size() - 1));
  });
  flush();
  return displayed;
}

}  // namespace

RS_TEST(nvdec_h264_shuffled_frames_match_the_cpu_reference) {
  shuffled_frames_match_reference("h264_exact");
}

RS_TEST(nvdec_hevc_shuffled_frames_match_the_cpu_reference) {
  shuffled_frames_match_reference("hevc_exact");
}

RS_TEST(cuda_driver_version_is_reported_where_nvdec_runs) {
  require_nvdec();
  int32_t version = 0;
  RS_CHECK_EQ(rs_cuda_driver_version(&version), RS_OK);
  RS_CHECK(version >= 11000);  // NVDEC through the Video Codec SDK 12 API needs a recent driver
  std::printf("CUDA driver %d.%d\n", version / 1000, (version % 1000) / 10);
}

RS_TEST(nvdec_av1_decodes_or_reports_why_not) {
  require_nvdec();
  const FixtureStream s = load_fixture("av1_exact");
  const std::string gpu = rs::NvdecDevice::get(0)->name();
  int32_t supported = -1;
  int rc = rs_nvdec_supports(0, RS_CODEC_AV1, 8, s.width, s.height, &supported);
  const bool hopper_or_a100 = gpu.find("H100") != std::string::npos ||
                              gpu.find("H200") != std::string::npos ||
                              gpu.find("A100") != std::string::npos;
  if (hopper_or_a100) {
    // These GPUs have no AV1 decoder: the answer must say so, so the loader falls back to dav1d.
    RS_CHECK_EQ(rc, RS_ERR_UNSUPPORTED);
    RS_CHECK_EQ(supported, 0);
    RS_CHECK(std::string(rs_last_error()).find("cannot decode AV1") != std::string::npos);
    return;
  }
  if (supported == 0) {
    RS_CHECK(std::string(rs_last_error()).find("AV1") != std::string::npos);
    return;
  }
  shuffled_frames_match_reference("av1_exact");
}

RS_TEST(nvdec_eight_concurrent_sessions_decode_exactly) {
  require_nvdec();
  const FixtureStream s = load_fixture("h264_exact");
  Pools pools;
  int64_t before[5];
  RS_CHECK_EQ(rs_nvdec_pool_stats(0, before), RS_OK);
  std::atomic<int> failures{0};
  std::vector<std::string> errors(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      try {
        NvdecSession session(s, /*low_latency=*/false);
        for (int pass = 0; pass < 3; ++pass) {
          if (sequential_pass(s, session, pools, true) != s.frames) throw Failure{"frames lost"};
        }
      } catch (const Failure& f) {
        errors[static_cast<size_t>(t)] = f.message;
        failures++;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& e : errors) {
    if (!e.empty()) throw Failure{e};
  }
  RS_CHECK_EQ(failures.load(), 0);
  int64_t stats[5];
  RS_CHECK_EQ(rs_nvdec_pool_stats(0, stats), RS_OK);
  RS_CHECK_EQ(stats[3], int64_t(0));  // every session gave its decoder back
  // Eight sessions at once need at most eight decoders (fewer when idle ones were reused).
  RS_CHECK(stats[0] - before[0] <= 8);
  RS_CHECK(stats[4] <= rs::NvdecDevice::session_limit());
}

RS_TEST(nvdec_decoder_objects_are_reused_across_files) {
  require_nvdec();
  const FixtureStream s = load_fixture("h264_exact");
  Pools pools;
  int64_t before[5];
  RS_CHECK_EQ(rs_nvdec_pool_stats(0, before), RS_OK);
  for (int file = 0; file < 4; ++file) {
    NvdecSession session(s, true);
    DeviceRows batch(pools.device, s, 1);
    session.decode_frame(file * 7, batch.slot(0));
    std::vector<uint8_t> host = batch.to_host(session.stream(), pools.host);
    check_frame(s, file * 7, host.data());
  }
  int64_t after[5];
  RS_CHECK_EQ(rs_nvdec_pool_stats(0, after), RS_OK);
  RS_CHECK(after[1] > before[1]);       // later files reused a pooled decoder
  RS_CHECK(after[0] - before[0] <= 1);  // at most one decoder was created for the four
}

RS_TEST(nvdec_device_memory_does_not_grow_over_10000_frames) {
  require_nvdec();
  const FixtureStream s = load_fixture("h264_exact");
  using MemGetInfo = int (*)(size_t*, size_t*);
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  RS_CHECK(cuda != nullptr);
  auto mem_get_info = reinterpret_cast<MemGetInfo>(dlsym(cuda, "cuMemGetInfo_v2"));
  RS_CHECK(mem_get_info != nullptr);
  auto device = rs::NvdecDevice::get(0);
  auto free_bytes = [&] {
    rs::ScopedContext scope(device->driver(), device->context());
    size_t free = 0, total = 0;
    RS_CHECK_EQ(mem_get_info(&free, &total), 0);
    return static_cast<int64_t>(free);
  };
  Pools pools;
  NvdecSession session(s, false);
  sequential_pass(s, session, pools, false);  // warm-up: pools and decoder at steady state
  const int64_t free_after_warmup = free_bytes();
  int64_t pool_stats[5];
  RS_CHECK_EQ(rs_pool_stats(pools.device, pool_stats), RS_OK);
  const int64_t allocations = pool_stats[0];
  int frames = 0;
  while (frames < 10000) frames += sequential_pass(s, session, pools, false);
  const int64_t growth = free_after_warmup - free_bytes();
  RS_CHECK_EQ(rs_pool_stats(pools.device, pool_stats), RS_OK);
  RS_CHECK_EQ(pool_stats[0], allocations);  // no new device buffers after the warm-up
  RS_CHECK(growth < 16LL * 1024 * 1024);
  dlclose(cuda);
}

// Runs without a GPU wherever the fixtures are: checks them before a GPU machine's time is spent.
// The streaming loader keeps decoded frames in pool buffers on the GPU and moves them into
// batch slots with these operations: copies within device memory, uploads of CPU-decoded frames
// (per-file fallback), and uint8 → float32 expansion; all ordered on a stream of the pool.
RS_TEST(cuda_pool_copies_uploads_and_expands_on_its_stream) {
  require_nvdec();
  Pools pools;
  const int64_t n = 3 * 640 * 480;
  std::vector<uint8_t> source(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) source[static_cast<size_t>(i)] = static_cast<uint8_t>(i * 7);
  int64_t held = 0, copy = 0, floats = 0, stream = 0;
  RS_CHECK_EQ(rs_pool_acquire(pools.device, n, &held), RS_OK);
  RS_CHECK_EQ(rs_pool_acquire(pools.device, n, &copy), RS_OK);
  RS_CHECK_EQ(rs_pool_acquire(pools.device, 4 * n, &floats), RS_OK);
  RS_CHECK_EQ(rs_pool_stream_create(pools.device, &stream), RS_OK);
  RS_CHECK(stream != 0);
  RS_CHECK_EQ(rs_pool_upload(pools.device, held, source.data(), n, stream), RS_OK);
  RS_CHECK_EQ(rs_pool_copy(pools.device, copy, held, n, stream), RS_OK);
  RS_CHECK_EQ(rs_pool_expand_unit_floats(pools.device, floats, copy, n, stream), RS_OK);
  RS_CHECK_EQ(rs_pool_stream_sync(pools.device, stream), RS_OK);

  // Read back through a one-row device batch's host copy path: export, copy to host, compare.
  int64_t batch = 0;
  int32_t col = -1;
  RS_CHECK_EQ(rs_device_batch_create(pools.device, 1, &batch), RS_OK);
  RS_CHECK_EQ(
      rs_device_batch_add_frame_column(batch, "u8", 480, 640, RS_LAYOUT_HWC, RS_DTYPE_UINT8, &col),
      RS_OK);
  RS_CHECK_EQ(rs_device_batch_add_frame_column(batch, "f32", 480, 640, RS_LAYOUT_HWC,
                                               RS_DTYPE_FLOAT32, &col),
              RS_OK);
  int64_t u8_slot = 0, f32_slot = 0;
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 0, 0, &u8_slot), RS_OK);
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 1, 0, &f32_slot), RS_OK);
  RS_CHECK_EQ(rs_pool_copy(pools.device, u8_slot, copy, n, stream), RS_OK);
  RS_CHECK_EQ(rs_pool_copy(pools.device, f32_slot, floats, 4 * n, stream), RS_OK);
  ArrowDeviceArray array;
  ArrowSchema schema;
  RS_CHECK_EQ(rs_device_batch_export(batch, stream, &array, &schema), RS_OK);
  int64_t host = 0;
  RS_CHECK_EQ(rs_device_batch_copy_to_host(&array, pools.host, &host), RS_OK);
  int64_t host_u8 = 0, host_f32 = 0;
  RS_CHECK_EQ(rs_device_batch_frame_slot(host, 0, 0, &host_u8), RS_OK);
  RS_CHECK_EQ(rs_device_batch_frame_slot(host, 1, 0, &host_f32), RS_OK);
  RS_CHECK(std::memcmp(reinterpret_cast<const void*>(host_u8), source.data(),
                       static_cast<size_t>(n)) == 0);
  const auto* f = reinterpret_cast<const float*>(host_f32);
  for (int64_t i = 0; i < n; ++i) {
    // Bit-equal to the CPU path's v / 255.
    RS_CHECK_EQ(f[i], static_cast<float>(source[static_cast<size_t>(i)]) / 255.0f);
  }
  rs_device_batch_free(host);
  array.array.release(&array.array);
  schema.release(&schema);
  RS_CHECK_EQ(rs_pool_release(pools.device, held, n), RS_OK);
  RS_CHECK_EQ(rs_pool_release(pools.device, copy, n), RS_OK);
  RS_CHECK_EQ(rs_pool_release(pools.device, floats, 4 * n), RS_OK);
  rs_pool_stream_free(pools.device, stream);
}

RS_TEST(gpu_fixtures_are_consistent) {
  if (gpu_fixture_dir().empty()) throw Skipped{"ROBOSTREAM_GPU_FIXTURES is not set"};
  for (const char* name : {"h264_exact", "hevc_exact", "av1_exact"}) {
    const FixtureStream s = load_fixture(name);
    RS_CHECK_EQ(static_cast<int>(s.packets.size()), s.frames);
    RS_CHECK(s.packets.front().key);
    for (int f = 0; f < s.frames; ++f) {
      RS_CHECK_EQ(pattern_frame_number(s.reference_frame(f), s.width), f);
      const size_t gop = s.gop_start_for(f);
      RS_CHECK(s.packets[gop].key);
      RS_CHECK(s.packets[gop].pts <= s.display_pts[static_cast<size_t>(f)]);
    }
  }
  for (const char* name : {"h264_640x480", "hevc_640x480", "h264_1920x1080", "hevc_1920x1080"}) {
    const FixtureStream s = load_fixture(name);
    RS_CHECK_EQ(static_cast<int>(s.packets.size()), s.frames);
  }
}
