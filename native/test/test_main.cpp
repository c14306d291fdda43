#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "robostream/robostream.h"
#include "test_support.hpp"

namespace rstest {
std::vector<TestCase>& registry() {
  static std::vector<TestCase> tests;
  return tests;
}

void require_nvdec() {
  if (rs_cuda_device_count() > 0 && rs_nvdec_available(0)) return;
  const std::string cause = rs_last_error();
  const char* required = std::getenv("ROBOSTREAM_REQUIRE_CUDA");
  if (required && std::strcmp(required, "1") == 0) {
    throw Failure{"ROBOSTREAM_REQUIRE_CUDA=1 but NVDEC is unusable: " + cause};
  }
  throw Skipped{cause};
}

std::string metadata_value(const char* metadata, const std::string& key) {
  if (!metadata) return {};
  int32_t n;
  std::memcpy(&n, metadata, 4);
  const char* p = metadata + 4;
  for (int i = 0; i < n; ++i) {
    int32_t klen, vlen;
    std::memcpy(&klen, p, 4);
    std::string k(p + 4, static_cast<size_t>(klen));
    p += 4 + klen;
    std::memcpy(&vlen, p, 4);
    std::string v(p + 4, static_cast<size_t>(vlen));
    p += 4 + vlen;
    if (k == key) return v;
  }
  return {};
}
}  // namespace rstest

// Exit status 77 when every test skipped: ctest (SKIP_RETURN_CODE 77) then reports "skipped".
// An argument runs only the tests whose names contain it.

int main(int argc, char** argv) {
  const char* only = argc > 1 ? argv[1] : nullptr;
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  for (const auto& test : rstest::registry()) {
    if (only && std::strstr(test.name, only) == nullptr) continue;
    try {
      test.body();
      ++passed;
      std::printf("[ PASS ] %s\n", test.name);
    } catch (const rstest::Skipped& s) {
      ++skipped;
      std::printf("[ SKIP ] %s: %s\n", test.name, s.reason.c_str());
    } catch (const rstest::Failure& f) {
      ++failed;
      std::printf("[ FAIL ] %s: %s\n", test.name, f.message.c_str());
    } catch (const std::exception& e) {
      ++failed;
      std::printf("[ FAIL ] %s: unexpected exception: %s\n", test.name, e.what());
    }
  }
  std::printf("native: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
  if (failed > 0) return 1;
  return passed == 0 && skipped > 0 ? 77 : 0;
}
