// The process-wide part of the C API (version, last error, live counters), shared by the full core
// and the NVDEC-only build of the GPU tests.
#include "core/allocation_faults.hpp"
#include "core/errors.hpp"
#include "core/live_objects.hpp"
#include "robostream/robostream.h"

extern "C" {

const char* rs_version(void) { return ROBOSTREAM_VERSION; }

const char* rs_last_error(void) { return rs::last_error(); }

int64_t rs_live_objects(void) { return rs::live_objects().load(); }

int64_t rs_live_bytes(void) { return rs::live_bytes().load(); }

void rs_debug_fail_allocations(int64_t succeed_first, int64_t then_fail) {
  rs::arm_allocation_failures(succeed_first, then_fail);
}

}  // extern "C"
