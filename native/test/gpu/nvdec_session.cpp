#include "nvdec_session.hpp"

#include <cstring>
#include <string>

#include "arrow/abi.h"
#include "robostream/robostream.h"
#include "test_support.hpp"

namespace rstest {
namespace {

void ok(int rc, const char* what) {
  if (rc != RS_OK) throw Failure{std::string(what) + ": " + rs_last_error()};
}

}  // namespace

NvdecSession::NvdecSession(const FixtureStream& stream, bool low_latency) : fixture_(stream) {
  ok(rs_nvdec_open(0, codec_of(stream.name), low_latency ? 1 : 0, &decoder_), "rs_nvdec_open");
}

NvdecSession::~NvdecSession() { rs_nvdec_close(decoder_); }

int64_t NvdecSession::stream() const { return rs_nvdec_stream(decoder_); }

int64_t NvdecSession::frame_bytes() const { return int64_t{3} * fixture_.width * fixture_.height; }

bool NvdecSession::take_pictures(int64_t target_pts, int64_t slot) {
  bool found = false;
  int64_t info[7];
  for (;;) {
    ok(rs_nvdec_next_picture(decoder_, info), "rs_nvdec_next_picture");
    if (info[0] == 0) return found;
    if (info[2] != fixture_.width || info[3] != fixture_.height) {
      throw Failure{"picture of " + std::to_string(info[2]) + "x" + std::to_string(info[3])};
    }
    if (!found && info[1] == target_pts) {
      ok(rs_nvdec_convert_current(decoder_, slot, frame_bytes(), fixture_.width, fixture_.height,
                                  RS_LAYOUT_HWC, RS_DTYPE_UINT8,
                                  info[5] ? static_cast<int>(info[5]) : RS_MATRIX_BT601,
                                  static_cast<int>(info[6])),
         "rs_nvdec_convert_current");
      found = true;
    }
  }
}

void NvdecSession::decode_frame(int frame, int64_t slot) {
  const int64_t target = fixture_.display_pts[static_cast<size_t>(frame)];
  ok(rs_nvdec_flush(decoder_), "rs_nvdec_flush");
  for (size_t i = fixture_.gop_start_for(frame); i < fixture_.packets.size(); ++i) {
    const Packet& p = fixture_.packets[i];
    ok(rs_nvdec_send(decoder_, p.data.data(), static_cast<int>(p.data.size()), p.pts),
       "rs_nvdec_send");
    if (take_pictures(target, slot)) return;
  }
  ok(rs_nvdec_drain(decoder_), "rs_nvdec_drain");
  if (take_pictures(target, slot)) return;
  throw Failure{fixture_.name + ": frame " + std::to_string(frame) + " was never displayed"};
}

int NvdecSession::decode_all(const std::function<int64_t(int64_t)>& on_picture) {
  ok(rs_nvdec_flush(decoder_), "rs_nvdec_flush");
  int displayed = 0;
  int64_t info[7];
  auto drain_queue = [&] {
    for (;;) {
      ok(rs_nvdec_next_picture(decoder_, info), "rs_nvdec_next_picture");
      if (info[0] == 0) return;
      ++displayed;
      const int64_t slot = on_picture(info[1]);
      if (slot != 0) {
        ok(rs_nvdec_convert_current(decoder_, slot, frame_bytes(), fixture_.width, fixture_.height,
                                    RS_LAYOUT_HWC, RS_DTYPE_UINT8,
                                    info[5] ? static_cast<int>(info[5]) : RS_MATRIX_BT601,
                                    static_cast<int>(info[6])),
           "rs_nvdec_convert_current");
      }
    }
  };
  for (const Packet& p : fixture_.packets) {
    ok(rs_nvdec_send(decoder_, p.data.data(), static_cast<int>(p.data.size()), p.pts),
       "rs_nvdec_send");
    drain_queue();
  }
  ok(rs_nvdec_drain(decoder_), "rs_nvdec_drain");
  drain_queue();
  return displayed;
}

DeviceRows::DeviceRows(int64_t pool, const FixtureStream& stream, int n)
    : rows(n), frame_bytes(static_cast<size_t>(stream.width) * stream.height * 3) {
  ok(rs_device_batch_create(pool, n, &batch), "rs_device_batch_create");
  int32_t column = -1;
  ok(rs_device_batch_add_frame_column(batch, "cam", stream.height, stream.width, RS_LAYOUT_HWC,
                                      RS_DTYPE_UINT8, &column),
     "rs_device_batch_add_frame_column");
}

DeviceRows::~DeviceRows() { rs_device_batch_free(batch); }

int64_t DeviceRows::slot(int row) const {
  int64_t address = 0;
  ok(rs_device_batch_frame_slot(batch, 0, row, &address), "rs_device_batch_frame_slot");
  return address;
}

std::vector<uint8_t> DeviceRows::to_host(int64_t stream, int64_t host_pool) {
  ArrowDeviceArray array;
  ArrowSchema schema;
  ok(rs_device_batch_export(batch, stream, &array, &schema), "rs_device_batch_export");
  batch = 0;  // owned by the array now
  if (array.device_type != ARROW_DEVICE_CUDA || array.sync_event == nullptr) {
    throw Failure{"a CUDA batch must carry device_type CUDA and a sync_event"};
  }
  // What the Python bridge asks before torch reads the frames: its stream waits on the event.
  ok(rs_cuda_stream_wait_event(static_cast<int>(array.device_id),
                               reinterpret_cast<int64_t>(array.sync_event), 0),
     "rs_cuda_stream_wait_event");
  if (rs_cuda_stream_wait_event(rs_cuda_device_count(), reinterpret_cast<int64_t>(array.sync_event),
                                0) != RS_ERR_INVALID_ARGUMENT) {
    throw Failure{"a device that does not exist must be refused"};
  }
  int64_t copy = 0;
  ok(rs_device_batch_copy_to_host(&array, host_pool, &copy), "rs_device_batch_copy_to_host");
  array.array.release(&array.array);
  schema.release(&schema);
  ArrowDeviceArray host;
  ArrowSchema host_schema;
  ok(rs_device_batch_export(copy, 0, &host, &host_schema), "rs_device_batch_export (host)");
  const auto* frames = static_cast<const uint8_t*>(host.array.children[0]->children[0]->buffers[1]);
  std::vector<uint8_t> out(frames, frames + frame_bytes * static_cast<size_t>(rows));
  host.array.release(&host.array);
  host_schema.release(&host_schema);
  return out;
}

}  // namespace rstest
