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
  if (context_) driver_->cu().cuDevicePrimaryCtxRelease(handle_);
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

void CudaMemoryResource::copy_from_host(void* dst, const void* src, int64_t bytes) {
  ScopedContext scope(*driver_, context_);
  driver_->check(driver_->cu().cuMemcpyHtoD(device_pointer(dst), src, static_cast<size_t>(bytes)),
                 "cuMemcpyHtoD");
}

void CudaMemoryResource::copy_to_host(void* dst, const void* src, int64_t bytes) {
  ScopedContext scope(*driver_, context_);
  driver_->check(driver_->cu().cuMemcpyDtoH(dst, device_pointer(src), static_cast<size_t>(bytes)),
                 "cuMemcpyDtoH");
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
  driver_->check(driver_->cu().cuEventRecord(*static_cast<CUevent*>(event),
                                             static_cast<CUstream>(stream)),
                 "cuEventRecord");
}

void CudaMemoryResource::wait_event(void* event) {
  if (!event) return;
  ScopedContext scope(*driver_, context_);
  driver_->check(driver_->cu().cuEventSynchronize(*static_cast<CUevent*>(event)),
                 "cuEventSynchronize");
}

}  // namespace rs
