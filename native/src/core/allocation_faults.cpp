#include "core/allocation_faults.hpp"

#include <string>

#include "core/errors.hpp"

namespace rs {
namespace {

thread_local int64_t t_passes_left = 0;
thread_local int64_t t_failures_left = 0;

}  // namespace

void arm_allocation_failures(int64_t succeed_first, int64_t then_fail) {
  t_passes_left = succeed_first > 0 ? succeed_first : 0;
  t_failures_left = then_fail > 0 ? then_fail : 0;
}

void allocation_fault_point(const char* what) {
  if (t_failures_left == 0) return;
  if (t_passes_left > 0) {
    --t_passes_left;
    return;
  }
  --t_failures_left;
  throw OutOfMemory(std::string("cannot allocate ") + what + " (injected failure)");
}

}  // namespace rs
