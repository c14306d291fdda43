// The C API of robostream.h for frame batches (host or CUDA pools, the one batch type of the
// core), CUDA and NVDEC: the units that need no CPU codec library, so a GPU machine builds them
// alone. Like every capi*.cpp a boundary where C++ exceptions become status codes.
#include <memory>
#include <string>

#include "arrow/abi.h"
#include "capi_support.hpp"
#include "core/errors.hpp"
#include "cuda/colour_kernel.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/cuda_memory.hpp"
#include "cuda/nvdec_decoder.hpp"
#include "cuda/nvdec_device.hpp"
#include "device/buffer_pool.hpp"
#include "device/device_frame_batch.hpp"
#include "robostream/robostream.h"

using rs::capi::from_handle;
using rs::capi::require_out;
using rs::capi::to_handle;
using rs::capi::write_values;

namespace {

using PoolRef = std::shared_ptr<rs::BufferPool>;

PoolRef& pool_of(int64_t handle) { return *from_handle<PoolRef>(handle, "buffer pool"); }

void* address_of(int64_t address) {
  return reinterpret_cast<void*>(static_cast<intptr_t>(address));
}

const rs::capi::DecoderCalls<rs::NvdecDecoder> nvdec{"NVDEC decoder"};

// Copies need two buffers and a positive size; anything else is a caller bug, refused before any
// device call.
void check_copy(const void* dst, const void* src, int64_t bytes) {
  if (!dst || !src) throw rs::InvalidArgument("null buffer");
  if (bytes <= 0) throw rs::InvalidArgument("copy of " + std::to_string(bytes) + " bytes");
}

}  // namespace

extern "C" {

int rs_pool_create(int device_type, int device_id, int64_t* handle_out) {
  return rs::guarded([&] {
    require_out(handle_out);
    std::shared_ptr<rs::MemoryResource> memory;
    if (device_type == RS_DEVICE_CPU) {
      if (device_id != 0) throw rs::InvalidArgument("the host is device 0");
      memory = std::make_shared<rs::HostMemoryResource>();
    } else if (device_type == RS_DEVICE_CUDA) {
      memory = std::make_shared<rs::CudaMemoryResource>(device_id);
    } else {
      throw rs::InvalidArgument("unknown device type " + std::to_string(device_type));
    }
    handle_out[0] = to_handle(new PoolRef(std::make_shared<rs::BufferPool>(memory)));
  });
}

int rs_pool_stats(int64_t pool, int64_t* out) {
  return rs::guarded([&] {
    require_out(out);
    rs::PoolStats s = pool_of(pool)->stats();
    write_values(
        out, {s.allocations, s.reuses, s.outstanding_bytes, s.pooled_bytes, s.outstanding_events});
  });
}

void rs_pool_free(int64_t pool) {
  if (pool != 0) delete reinterpret_cast<PoolRef*>(static_cast<intptr_t>(pool));
}

int rs_pool_acquire(int64_t pool, int64_t bytes, int64_t* address_out) {
  return rs::guarded([&] {
    require_out(address_out);
    if (bytes <= 0) throw rs::InvalidArgument("buffer of " + std::to_string(bytes) + " bytes");
    address_out[0] = to_handle(pool_of(pool)->acquire(bytes));
  });
}

int rs_pool_release(int64_t pool, int64_t address, int64_t bytes) {
  return rs::guarded([&] {
    if (address == 0) throw rs::InvalidArgument("null buffer");
    if (!pool_of(pool)->release(address_of(address), bytes)) {
      throw rs::InvalidArgument("buffer of " + std::to_string(bytes) +
                                " bytes is not held from this pool (never acquired, released "
                                "twice, or another size)");
    }
  });
}

int rs_pool_stream_create(int64_t pool, int64_t* stream_out) {
  return rs::guarded([&] {
    require_out(stream_out);
    stream_out[0] = to_handle(pool_of(pool)->resource().create_stream());
  });
}

void rs_pool_stream_free(int64_t pool, int64_t stream) {
  if (pool == 0 || stream == 0) return;
  pool_of(pool)->resource().destroy_stream(address_of(stream));
}

int rs_pool_stream_sync(int64_t pool, int64_t stream) {
  return rs::guarded([&] { pool_of(pool)->resource().synchronize(address_of(stream)); });
}

int rs_pool_copy(int64_t pool, int64_t dst, int64_t src, int64_t bytes, int64_t stream) {
  return rs::guarded([&] {
    check_copy(address_of(dst), address_of(src), bytes);
    pool_of(pool)->resource().copy_within(address_of(dst), address_of(src), bytes,
                                          address_of(stream));
  });
}

int rs_pool_upload(int64_t pool, int64_t dst, const void* host_src, int64_t bytes, int64_t stream) {
  return rs::guarded([&] {
    check_copy(address_of(dst), host_src, bytes);
    pool_of(pool)->resource().copy_from_host(address_of(dst), host_src, bytes, address_of(stream));
  });
}

int rs_pool_expand_unit_floats(int64_t pool, int64_t dst, int64_t src, int64_t count,
                               int64_t stream) {
  return rs::guarded([&] {
    check_copy(address_of(dst), address_of(src), count);
    pool_of(pool)->resource().expand_to_unit_floats(static_cast<float*>(address_of(dst)),
                                                    static_cast<const uint8_t*>(address_of(src)),
                                                    count, address_of(stream));
  });
}

int rs_device_batch_create(int64_t pool, int64_t rows, int64_t* handle_out) {
  return rs::guarded([&] {
    require_out(handle_out);
    handle_out[0] = to_handle(new rs::DeviceFrameBatch(pool_of(pool), rows));
  });
}

int rs_device_batch_add_frame_column(int64_t batch, const char* name, int height, int width,
                                     int layout, int dtype, int32_t* column_out) {
  return rs_device_batch_add_window_column(batch, name, 1, height, width, layout, dtype,
                                           column_out);
}

int rs_device_batch_add_window_column(int64_t batch, const char* name, int positions, int height,
                                      int width, int layout, int dtype, int32_t* column_out) {
  return rs::guarded([&] {
    require_out(column_out);
    if (!name) throw rs::InvalidArgument("null column name");
    column_out[0] = from_handle<rs::DeviceFrameBatch>(batch, "device batch")
                        ->add_frame_column(name, positions, height, width, layout, dtype);
  });
}

int rs_device_batch_frame_slot(int64_t batch, int column, int64_t slot, int64_t* address_out) {
  return rs::guarded([&] {
    require_out(address_out);
    address_out[0] =
        to_handle(from_handle<rs::DeviceFrameBatch>(batch, "device batch")->slot(column, slot));
  });
}

int rs_device_batch_set_frame_info(int64_t batch, int column, int64_t slot, double pts_seconds,
                                   int64_t frame_index) {
  return rs::guarded([&] {
    from_handle<rs::DeviceFrameBatch>(batch, "device batch")
        ->set_frame_info(column, slot, pts_seconds, frame_index);
  });
}

int rs_device_batch_export(int64_t batch, int64_t stream, void* device_array, void* arrow_schema) {
  return rs::guarded([&] {
    // Ownership moves only if this returns RS_OK (export_to takes it on success).
    rs::DeviceFrameBatch::export_to(
        from_handle<rs::DeviceFrameBatch>(batch, "device batch"), reinterpret_cast<void*>(stream),
        static_cast<ArrowDeviceArray*>(device_array), static_cast<ArrowSchema*>(arrow_schema));
  });
}

int rs_device_batch_host_view(const void* device_array, void* arrow_array, void* arrow_schema) {
  return rs::guarded([&] {
    if (!device_array) throw rs::InvalidArgument("null ArrowDeviceArray");
    rs::DeviceFrameBatch::host_view(*static_cast<const ArrowDeviceArray*>(device_array),
                                    static_cast<ArrowArray*>(arrow_array),
                                    static_cast<ArrowSchema*>(arrow_schema));
  });
}

int rs_device_batch_copy_to_host(const void* device_array, int64_t host_pool, int64_t* handle_out) {
  return rs::guarded([&] {
    require_out(handle_out);
    if (!device_array) throw rs::InvalidArgument("null ArrowDeviceArray");
    auto copy = rs::DeviceFrameBatch::copy_to_host(
        *static_cast<const ArrowDeviceArray*>(device_array), pool_of(host_pool));
    handle_out[0] = to_handle(copy.release());
  });
}

void rs_device_batch_free(int64_t batch) {
  if (batch != 0) delete reinterpret_cast<rs::DeviceFrameBatch*>(static_cast<intptr_t>(batch));
}

int rs_cuda_compiled(void) { return rs::ColourKernel::embedded() ? 1 : 0; }

int rs_cuda_device_count(void) {
  const rs::CudaDriver* driver = rs::CudaDriver::get();
  if (!driver) {
    rs::set_last_error(rs::CudaDriver::unavailable_reason());
    return -1;
  }
  rs::clear_last_error();
  return driver->device_count();
}

int rs_cuda_stream_wait_event(int device_id, int64_t sync_event, int64_t stream) {
  return rs::guarded([&] {
    if (sync_event == 0) return;  // a host batch: written when it was exported
    const rs::CudaDriver* driver = rs::CudaDriver::get();
    if (!driver) throw rs::LibraryUnavailable(rs::CudaDriver::unavailable_reason());
    if (device_id < 0 || device_id >= driver->device_count()) {
      throw rs::InvalidArgument("cuda:" + std::to_string(device_id) + " does not exist (" +
                                std::to_string(driver->device_count()) + " CUDA device(s))");
    }
    const auto wait = driver->stream_wait_event();
    if (!wait) throw rs::LibraryUnavailable("the CUDA driver does not export cuStreamWaitEvent");
    CUdevice device = 0;
    driver->check(driver->cu().cuDeviceGet(&device, device_id), "cuDeviceGet");
    CUcontext context = nullptr;
    driver->check(driver->cu().cuDevicePrimaryCtxRetain(&context, device),
                  "cuDevicePrimaryCtxRetain");
    // Released on every way out: the retain is counted by the driver.
    struct Release {
      const rs::CudaDriver* driver;
      CUdevice device;
      ~Release() { driver->cu().cuDevicePrimaryCtxRelease(device); }
    } release{driver, device};
    rs::ScopedContext scope(*driver, context);
    const CUevent event = *reinterpret_cast<const CUevent*>(static_cast<intptr_t>(sync_event));
    driver->check(wait(reinterpret_cast<CUstream>(static_cast<intptr_t>(stream)), event, 0),
                  "cuStreamWaitEvent");
  });
}

int rs_cuda_driver_version(int32_t* version_out) {
  return rs::guarded([&] {
    require_out(version_out);
    const int version = rs::CudaDriver::driver_version();
    if (version <= 0) {
      const std::string& reason = rs::CudaDriver::unavailable_reason();
      throw rs::LibraryUnavailable(reason.empty() ? "cuDriverGetVersion failed" : reason);
    }
    *version_out = version;
  });
}

int rs_nvdec_available(int device) {
  int rc = rs::guarded([&] { rs::NvdecDevice::get(device); });
  return rc == RS_OK ? 1 : 0;
}

int rs_nvdec_supports(int device, int codec, int bit_depth, int width, int height,
                      int32_t* supported_out) {
  return rs::guarded([&] {
    require_out(supported_out);
    if (width <= 0 || height <= 0) throw rs::InvalidArgument("video without a size");
    auto nvdec = rs::NvdecDevice::get(device);
    std::string reason = nvdec->unsupported_reason(
        rs::nvdec_codec(codec), cudaVideoChromaFormat_420, bit_depth,
        static_cast<unsigned int>(width), static_cast<unsigned int>(height));
    supported_out[0] = reason.empty() ? 1 : 0;
    if (!reason.empty()) throw rs::Unsupported(reason);
  });
}

int rs_nvdec_open(int device, int codec, int low_latency, int64_t* handle_out) {
  return nvdec.open(handle_out, device, codec, low_latency != 0);
}

int rs_nvdec_send(int64_t handle, const uint8_t* data, int size, int64_t pts) {
  return nvdec.send(handle, data, size, pts);
}

int rs_nvdec_drain(int64_t handle) { return nvdec.drain(handle); }

int rs_nvdec_next_picture(int64_t handle, int64_t* out) {
  return nvdec.next_picture<rs::NvdecPicture>(
      handle, out, [](const rs::NvdecPicture& p, int64_t* o) {
        write_values(o, {p.pts, p.width, p.height, p.bit_depth, p.matrix, p.full_range});
      });
}

int rs_nvdec_convert_current(int64_t handle, int64_t device_slot, int64_t slot_bytes, int out_width,
                             int out_height, int layout, int dtype, int matrix, int full_range) {
  return rs::guarded([&] {
    nvdec(handle).convert_current(address_of(device_slot), slot_bytes, out_width, out_height,
                                  layout, dtype, matrix, full_range != 0);
  });
}

int rs_nvdec_flush(int64_t handle) { return nvdec.flush(handle); }

int64_t rs_nvdec_stream(int64_t handle) {
  if (handle == 0) return 0;
  return to_handle(reinterpret_cast<rs::NvdecDecoder*>(static_cast<intptr_t>(handle))->stream());
}

int rs_nvdec_pool_stats(int device, int64_t* out) {
  return rs::guarded([&] {
    require_out(out);
    rs::NvdecPoolStats s = rs::NvdecDevice::get(device)->stats();
    write_values(out, {s.created, s.reused, s.reconfigured, s.active, s.idle});
  });
}

void rs_nvdec_close(int64_t handle) { nvdec.close(handle); }

}  // extern "C"
