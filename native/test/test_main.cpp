#include <cstdio>
#include <exception>

#include "test_support.hpp"

namespace rstest {
std::vector<TestCase>& registry() {
  static std::vector<TestCase> tests;
  return tests;
}
}  // namespace rstest

int main() {
  int passed = 0;
  int failed = 0;
  for (const auto& test : rstest::registry()) {
    try {
      test.body();
      ++passed;
      std::printf("[ PASS ] %s\n", test.name);
    } catch (const rstest::Failure& f) {
      ++failed;
      std::printf("[ FAIL ] %s: %s\n", test.name, f.message.c_str());
    } catch (const std::exception& e) {
      ++failed;
      std::printf("[ FAIL ] %s: unexpected exception: %s\n", test.name, e.what());
    }
  }
  std::printf("native: %d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
