#include "cuda/cuda_memory.hpp"

#include <string>

#include "arrow/abi.h"
#include "core/errors.hpp"

namespace rs {
namespace {

CUdeviceptr device_pointer(const void* p) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
}

}  // namespace

CudaMemoryResource::CudaMemoryResource(int device) : driver_(CudaDriver::get()), device_(device) {
  if (!driver_) throw LibraryUnavailable(CudaDriver::unavailable_reason());
  if (device < 0 || device >= driver_->device_count()) {
    throw InvalidArgument("cuda:" + std::to_string(device) + " does not exist (" +
                          std::to_string(driver_->device_count()) + " CUDA device(s))");
  }
  driver_->check(driver_->cu().cuDeviceGet(&handle_, device), "cuDeviceGet");
  driver_->check(driver_->cu().cuDevicePrimaryCtxRetain(&context_, handle_),
                 "cuDevicePrimaryCtxRetain");
}

CudaMemoryResource::~CudaMemoryResource() {
  if (!context_) return;
  if (kernel_ && driver_->cu().cuCtxPushCurrent(context_) == CUDA_SUCCESS) {
    kernel_.reset();  // its module belongs to the context released below
    CUcontext ignored = nullptr;
    driver_->cu().cuCtxPopCurrent(&ignored);
  }
  driver_->cu().cuDevicePrimaryCtxRelease(handle_);
}

int32_t CudaMemoryResource::device_type() const { return ARROW_DEVICE_CUDA; }

void* CudaMemoryResource::allocate(int64_t bytes) {
  if (bytes <= 0) throw InvalidArgument("buffer of " + std::to_string(bytes) + " bytes");
  ScopedContext scope(*driver_, context_);
  CUdeviceptr p = 0;
  driver_->check(driver_->cu().cuMemAlloc(&p, static_cast<size_t>(bytes)),
                 ("cuMemAlloc of " + std::to_string(bytes) + " bytes").c_str());
  return reinterpret_cast<void*>(static_cast<uintptr_t>(p));
}

void CudaMemoryResource::deallocate(void* buffer, int64_t) noexcept {
  if (!buffer) return;
  if (driver_->cu().cuCtxPushCurrent(context_) != CUDA_SUCCESS) return;
  driver_->cu().cuMemFree(device_pointer(buffer));
  CUcontext ignored = nullptr;
  driver_->cu().cuCtxPopCurrent(&ignored);
}

// Ordered on the caller's stream (never the legacy default stream, which would wait behind every
// blocking stream in the shared primary context, a trainer's included): an event recorded there
// afterwards covers the copy, which a synchronous cuMemcpyHtoD from pageable memory would not
// guarantee (it may return before its DMA is done).
void CudaMemoryResource::copy_from_host(void* dst, const void* src, int64_t bytes, void* stream) {
  ScopedContext scope(*driver_, context_);
  driver_->check(
      driver_->cu().cuMemcpyHtoDAsync(device_pointer(dst), src, static_cast<size_t>(bytes),
                                      static_cast<CUstream>(stream)),
      "cuMemcpyHtoDAsync");
}

void CudaMemoryResource::copy_to_host(void* dst, const void* src, int64_t bytes) {
  ScopedContext scope(*driver_, context_);
  driver_->check(driver_->cu().cuMemcpyDtoH(dst, device_pointer(src), static_cast<size_t>(bytes)),
                 "cuMemcpyDtoH");
}

void* CudaMemoryResource::create_stream() {
  ScopedContext scope(*driver_, context_);
  CUstream stream = nullptr;
  driver_->check(driver_->cu().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return stream;
}

void CudaMemoryResource::destroy_stream(void* stream) noexcept {
  if (!stream) return;
  if (driver_->cu().cuCtxPushCurrent(context_) != CUDA_SUCCESS) return;
  driver_->cu().cuStreamDestroy(static_cast<CUstream>(stream));
  CUcontext ignored = nullptr;
  driver_->cu().cuCtxPopCurrent(&ignored);
}

void CudaMemoryResource::synchronize(void* stream) {
  ScopedContext scope(*driver_, context_);
  driver_->check(driver_->cu().cuStreamSynchronize(static_cast<CUstream>(stream)),
                 "cuStreamSynchronize");
}

void CudaMemoryResource::copy_within(void* dst, const void* src, int64_t bytes, void* stream) {
  ScopedContext scope(*driver_, context_);
  driver_->check(
      driver_->cu().cuMemcpyDtoDAsync(device_pointer(dst), device_pointer(src),
                                      static_cast<size_t>(bytes), static_cast<CUstream>(stream)),
      "cuMemcpyDtoDAsync");
}

void CudaMemoryResource::expand_to_unit_floats(float* dst, const uint8_t* src, int64_t count,
                                               void* stream) {
  std::call_once(kernel_once_,
                 [this] { kernel_ = std::make_unique<ColourKernel>(*driver_, context_); });
  ScopedContext scope(*driver_, context_);
  kernel_->launch_unit_floats(device_pointer(dst), device_pointer(src), count,
                              static_cast<CUstream>(stream));
}

void* CudaMemoryResource::create_event() {
  ScopedContext scope(*driver_, context_);
  auto* event = new CUevent(nullptr);
  CUresult rc = driver_->cu().cuEventCreate(event, CU_EVENT_DISABLE_TIMING);
  if (rc != CUDA_SUCCESS) {
    delete event;
    driver_->check(rc, "cuEventCreate");
  }
  return event;
}

void CudaMemoryResource::destroy_event(void* event) noexcept {
  if (!event) return;
  auto* e = static_cast<CUevent*>(event);
  if (driver_->cu().cuCtxPushCurrent(context_) == CUDA_SUCCESS) {
    driver_->cu().cuEventDestroy(*e);
    CUcontext ignored = nullptr;
    driver_->cu().cuCtxPopCurrent(&ignored);
  }
  delete e;
}

void CudaMemoryResource::record_event(void* event, void* stream) {
  if (!event) throw InvalidArgument("null CUDA event");
  ScopedContext scope(*driver_, context_);
  driver_->check(
      driver_->cu().cuEventRecord(*static_cast<CUevent*>(event), static_cast<CUstream>(stream)),
      "cuEventRecord");
}

void CudaMemoryResource::wait_event(void* event) {
  if (!event) return;
  ScopedContext scope(*driver_, context_);
  driver_->check(driver_->cu().cuEventSynchronize(*static_cast<CUevent*>(event)),
                 "cuEventSynchronize");
}

}  // namespace rs
