// NVDEC decode+convert throughput on a GPU machine (run by scripts/gpu-check.sh):
//   robostream_nvdec_bench [SECONDS]   with ROBOSTREAM_GPU_FIXTURES=DIR
// For each throughput stream and each session count (1, 4, 8, 14), every session is a thread
// with its own NVDEC session looping over the stream, converting every frame to uint8 HWC into
// 8-row pooled CUDA batches that are exported and released like the loader's. Prints one
// tab-separated line per configuration: stream, sessions, frames, seconds, frames/s, frames/s
// per session, scaling against one session.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "arrow/abi.h"
#include "nvdec_fixtures.hpp"
#include "nvdec_session.hpp"
#include "robostream/robostream.h"
#include "test_support.hpp"

using namespace rstest;

namespace rstest {
std::vector<TestCase>& registry() {
  static std::vector<TestCase> none;
  return none;
}
}  // namespace rstest

namespace {

// One session's loop until the deadline; returns frames converted.
int64_t run_session(const FixtureStream& s, int64_t pool,
                    std::chrono::steady_clock::time_point end) {
  NvdecSession session(s, /*low_latency=*/false);
  int64_t frames = 0;
  std::unique_ptr<DeviceRows> batch;
  int used = 0;
  auto release = [&] {
    if (!batch) return;
    ArrowDeviceArray array;
    ArrowSchema schema;
    if (rs_device_batch_export(batch->batch, session.stream(), &array, &schema) != RS_OK) {
      throw Failure{rs_last_error()};
    }
    batch->batch = 0;
    array.array.release(&array.array);
    schema.release(&schema);
    batch.reset();
    used = 0;
  };
  while (std::chrono::steady_clock::now() < end) {
    session.decode_all([&](int64_t) -> int64_t {
      if (used == 8) release();
      if (!batch) batch = std::make_unique<DeviceRows>(pool, s, 8);
      ++frames;
      return batch->slot(used++);
    });
  }
  release();
  return frames;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 4.0;
  if (rs_cuda_device_count() <= 0 || !rs_nvdec_available(0)) {
    std::printf("NVDEC unavailable: %s\n", rs_last_error());
    return 77;
  }
  int64_t pool = 0;
  if (rs_pool_create(RS_DEVICE_CUDA, 0, &pool) != RS_OK) {
    std::printf("no CUDA pool: %s\n", rs_last_error());
    return 1;
  }
  std::printf("stream\tsessions\tframes\tseconds\tframes_per_s\tper_session\tscaling_vs_1\n");
  int status = 0;
  for (const char* name : {"h264_640x480", "hevc_640x480", "h264_1920x1080", "hevc_1920x1080"}) {
    FixtureStream s;
    try {
      s = load_fixture(name);
    } catch (const Skipped& e) {
      std::printf("%s\tmissing: %s\n", name, e.reason.c_str());
      status = 1;
      continue;
    } catch (const Failure& e) {
      std::printf("%s\tmissing: %s\n", name, e.message.c_str());
      status = 1;
      continue;
    }
    double single = 0;
    for (int sessions : {1, 4, 8, 14}) {
      std::vector<std::thread> threads;
      std::vector<int64_t> counts(static_cast<size_t>(sessions), 0);
      std::vector<std::string> errors(static_cast<size_t>(sessions));
      const auto start = std::chrono::steady_clock::now();
      const auto end = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(seconds));
      for (int t = 0; t < sessions; ++t) {
        threads.emplace_back([&, t] {
          try {
            counts[static_cast<size_t>(t)] = run_session(s, pool, end);
          } catch (const Failure& f) {
            errors[static_cast<size_t>(t)] = f.message;
          }
        });
      }
      for (auto& th : threads) th.join();
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      int64_t total = 0;
      for (int64_t c : counts) total += c;
      for (const auto& e : errors) {
        if (!e.empty()) {
          std::printf("%s\t%d\terror: %s\n", name, sessions, e.c_str());
          status = 1;
        }
      }
      const double fps = total / elapsed;
      if (sessions == 1) single = fps;
      std::printf("%s\t%d\t%lld\t%.2f\t%.1f\t%.1f\t%.2f\n", name, sessions,
                  static_cast<long long>(total), elapsed, fps, fps / sessions,
                  single > 0 ? fps / single : 0.0);
      std::fflush(stdout);
    }
  }
  int64_t stats[5];
  if (rs_nvdec_pool_stats(0, stats) == RS_OK) {
    std::printf("# NVDEC decoders created %lld, reused %lld, reconfigured %lld\n",
                static_cast<long long>(stats[0]), static_cast<long long>(stats[1]),
                static_cast<long long>(stats[2]));
  }
  rs_pool_free(pool);
  return status;
}
