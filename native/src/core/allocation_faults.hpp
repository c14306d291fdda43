// Fault injection for the error paths of batch memory (rs_debug_fail_allocations): a test arms
// it on its thread, and the next allocations of batch buffers, pooled buffers and exported Arrow
// nodes fail with OutOfMemory exactly as a real allocation failure would. Thread-local, so tests
// never disturb other threads; when unarmed, a fault point costs one thread-local compare.
#pragma once

#include <cstdint>

namespace rs {

// On the calling thread, the next `succeed_first` fault points pass and the `then_fail` after
// them throw OutOfMemory. (0, 0) disarms.
void arm_allocation_failures(int64_t succeed_first, int64_t then_fail);

// Called right before an allocation; throws OutOfMemory naming `what` when an armed failure is
// due on this thread.
void allocation_fault_point(const char* what);

}  // namespace rs
