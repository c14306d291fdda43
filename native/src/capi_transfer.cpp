// The C API of robostream.h for host-to-device transfers (see capi.cpp for the contract: this is
// where C++ exceptions become status codes).
#include <cstdint>

#include "capi_support.hpp"
#include "core/errors.hpp"
#include "cuda/host_to_device.hpp"
#include "robostream/robostream.h"

using rs::capi::from_handle;
using rs::capi::require_out;
using rs::capi::to_handle;

namespace {

rs::HostToDeviceTransfer& transfer_of(int64_t handle) {
  return *from_handle<rs::HostToDeviceTransfer>(handle, "transfer");
}

}  // namespace

extern "C" {

int rs_transfer_open(int device, int64_t* handle_out) {
  return rs::guarded([&] {
    require_out(handle_out);
    handle_out[0] = to_handle(new rs::HostToDeviceTransfer(device));
  });
}

int rs_transfer_staging(int64_t transfer, int64_t bytes, int64_t* address_out) {
  return rs::guarded([&] {
    require_out(address_out);
    address_out[0] = to_handle(transfer_of(transfer).staging(bytes));
  });
}

int rs_transfer_upload(int64_t transfer, int64_t bytes) {
  return rs::guarded([&] { transfer_of(transfer).upload(bytes); });
}

int rs_transfer_read_back(int64_t transfer, void* host_dst, int64_t bytes) {
  return rs::guarded([&] { transfer_of(transfer).read_back(host_dst, bytes); });
}

void rs_transfer_close(int64_t transfer) {
  if (transfer != 0) {
    delete reinterpret_cast<rs::HostToDeviceTransfer*>(static_cast<intptr_t>(transfer));
  }
}

}  // extern "C"
