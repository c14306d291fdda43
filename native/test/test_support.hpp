// A minimal test harness for the native tests (the GPU machine has no test framework packages).
#pragma once

#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace rstest {

struct TestCase {
  const char* name;
  std::function<void()> body;
};

std::vector<TestCase>& registry();

struct Registrar {
  Registrar(const char* name, std::function<void()> body) {
    registry().push_back({name, std::move(body)});
  }
};

struct Failure {
  std::string message;
};

// Thrown by a test that cannot run here (no GPU); counted apart from passes and failures.
struct Skipped {
  std::string reason;
};

// Skips the calling test when CUDA/NVDEC is unusable, or fails it when ROBOSTREAM_REQUIRE_CUDA=1
// (set by scripts/gpu-check.sh) so that a broken GPU machine cannot pass.
void require_nvdec();

// The value of `key` in Arrow C Data interface metadata ("" when absent).
std::string metadata_value(const char* metadata, const std::string& key);

}  // namespace rstest

#define RS_TEST(name)                                        \
  static void name();                                        \
  static ::rstest::Registrar name##_registrar(#name, &name); \
  static void name()

#define RS_CHECK(cond)                                                \
  do {                                                                \
    if (!(cond)) {                                                    \
      std::ostringstream os_;                                         \
      os_ << __FILE__ << ":" << __LINE__ << ": check failed: " #cond; \
      throw ::rstest::Failure{os_.str()};                             \
    }                                                                 \
  } while (0)

#define RS_CHECK_EQ(a, b)                                                                          \
  do {                                                                                             \
    auto va_ = (a);                                                                                \
    auto vb_ = (b);                                                                                \
    if (!(va_ == vb_)) {                                                                           \
      std::ostringstream os_;                                                                      \
      os_ << __FILE__ << ":" << __LINE__ << ": " #a " == " #b " failed: " << va_ << " vs " << vb_; \
      throw ::rstest::Failure{os_.str()};                                                          \
    }                                                                                              \
  } while (0)
