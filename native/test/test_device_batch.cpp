// The Arrow C Device export on every machine: host pools (device_type CPU), and a test resource
// with fake events standing in for a GPU to check sync_event handling and release semantics.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "arrow/abi.h"
#include "core/errors.hpp"
#include "device/buffer_pool.hpp"
#include "device/device_frame_batch.hpp"
#include "robostream/robostream.h"
#include "test_support.hpp"

using rstest::metadata_value;

namespace {

// Host memory that pretends to be a device with events: each event is an int counting how often
// it was recorded, so the test can see which event a batch carries and when it was recorded.
class EventedHostMemory final : public rs::MemoryResource {
 public:
  int32_t device_type() const override { return ARROW_DEVICE_CUDA; }
  int64_t device_id() const override { return 3; }
  void* allocate(int64_t bytes) override { return host_.allocate(bytes); }
  void deallocate(void* p, int64_t bytes) noexcept override { host_.deallocate(p, bytes); }
  void copy_from_host(void* d, const void* s, int64_t n, void*) override { std::memcpy(d, s, n); }
  void copy_to_host(void* d, const void* s, int64_t n) override { std::memcpy(d, s, n); }
  void* create_stream() override { return nullptr; }
  void destroy_stream(void*) noexcept override {}
  void synchronize(void*) override {}
  void copy_within(void* d, const void* s, int64_t n, void* stream) override {
    host_.copy_within(d, s, n, stream);
  }
  void expand_to_unit_floats(float* d, const uint8_t* s, int64_t n, void* stream) override {
    host_.expand_to_unit_floats(d, s, n, stream);
  }
  void* create_event() override {
    created++;
    return new int(0);
  }
  void destroy_event(void* e) noexcept override {
    destroyed++;
    delete static_cast<int*>(e);
  }
  void record_event(void* e, void* stream) override {
    (*static_cast<int*>(e))++;
    last_stream = stream;
  }
  void wait_event(void* e) override { waited_for = e; }

  int created = 0;
  int destroyed = 0;
  void* last_stream = nullptr;
  void* waited_for = nullptr;

 private:
  rs::HostMemoryResource host_;
};

void fill_batch(int64_t batch, int rows) {
  for (int64_t row = 0; row < rows; ++row) {
    int64_t address = 0;
    RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 0, row, &address), RS_OK);
    std::memset(reinterpret_cast<void*>(address), static_cast<int>(10 + row), 2 * 3 * 3);
    RS_CHECK_EQ(rs_device_batch_set_frame_info(batch, 0, row, 0.5 * row, 100 + row), RS_OK);
    RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 1, row, &address), RS_OK);
    auto* values = reinterpret_cast<float*>(address);
    for (int i = 0; i < 3 * 2 * 3; ++i) values[i] = 0.25f * static_cast<float>(row);
  }
}

// Exports a batch of one 1x1 uint8 frame from `pool` into `array` / `schema`, which own it.
void export_one_pixel(const std::shared_ptr<rs::BufferPool>& pool, ArrowDeviceArray* array,
                      ArrowSchema* schema) {
  auto batch = std::make_unique<rs::DeviceFrameBatch>(pool, 1);
  batch->add_frame_column("cam", 1, 1, 1, RS_LAYOUT_HWC, RS_DTYPE_UINT8);
  rs::DeviceFrameBatch::export_to(batch.get(), nullptr, array, schema);
  batch.release();  // the array owns it now
}

}  // namespace

RS_TEST(device_batch_exports_a_cpu_device_array) {
  const int64_t objects_before = rs_live_objects();
  const int64_t bytes_before = rs_live_bytes();
  int64_t pool = 0;
  RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CPU, 0, &pool), RS_OK);
  int64_t batch = 0;
  RS_CHECK_EQ(rs_device_batch_create(pool, 2, &batch), RS_OK);
  int32_t col = -1;
  RS_CHECK_EQ(
      rs_device_batch_add_frame_column(batch, "front", 2, 3, RS_LAYOUT_HWC, RS_DTYPE_UINT8, &col),
      RS_OK);
  RS_CHECK_EQ(col, 0);
  RS_CHECK_EQ(
      rs_device_batch_add_frame_column(batch, "wrist", 2, 3, RS_LAYOUT_CHW, RS_DTYPE_FLOAT32, &col),
      RS_OK);
  RS_CHECK_EQ(col, 1);
  fill_batch(batch, 2);

  ArrowDeviceArray array;
  ArrowSchema schema;
  RS_CHECK_EQ(rs_device_batch_export(batch, 0, &array, &schema), RS_OK);
  RS_CHECK_EQ(array.device_type, ARROW_DEVICE_CPU);
  RS_CHECK_EQ(array.device_id, 0);
  RS_CHECK(array.sync_event == nullptr);  // host writes are complete: no event (spec for CPU)
  RS_CHECK_EQ(array.array.length, 2);
  RS_CHECK_EQ(array.array.n_children, 6);
  RS_CHECK_EQ(std::string(schema.format), "+s");
  RS_CHECK_EQ(std::string(schema.children[0]->format), "+w:18");
  RS_CHECK_EQ(std::string(schema.children[0]->children[0]->format), "C");
  RS_CHECK_EQ(std::string(schema.children[3]->format), "+w:18");
  RS_CHECK_EQ(std::string(schema.children[3]->children[0]->format), "f");
  RS_CHECK_EQ(std::string(schema.children[3]->name), "wrist");
  RS_CHECK_EQ(metadata_value(schema.children[3]->metadata, "ARROW:extension:metadata"),
              std::string("{\"shape\":[3,2,3],\"dim_names\":[\"C\",\"H\",\"W\"]}"));
  const auto* frames =
      static_cast<const uint8_t*>(array.array.children[0]->children[0]->buffers[1]);
  RS_CHECK_EQ(int(frames[0]), 10);
  RS_CHECK_EQ(int(frames[18]), 11);
  const auto* floats = static_cast<const float*>(array.array.children[3]->children[0]->buffers[1]);
  RS_CHECK_EQ(floats[18], 0.25f);
  const auto* pts = static_cast<const double*>(array.array.children[1]->buffers[1]);
  const auto* index = static_cast<const int64_t*>(array.array.children[2]->buffers[1]);
  RS_CHECK_EQ(pts[1], 0.5);
  RS_CHECK_EQ(index[1], int64_t(101));

  // A host copy is a new batch with equal contents.
  int64_t copy = 0;
  RS_CHECK_EQ(rs_device_batch_copy_to_host(&array, pool, &copy), RS_OK);
  ArrowDeviceArray copied;
  ArrowSchema copied_schema;
  RS_CHECK_EQ(rs_device_batch_export(copy, 0, &copied, &copied_schema), RS_OK);
  RS_CHECK(std::memcmp(copied.array.children[0]->children[0]->buffers[1], frames, 36) == 0);
  RS_CHECK_EQ(static_cast<const int64_t*>(copied.array.children[2]->buffers[1])[1], int64_t(101));
  copied.array.release(&copied.array);
  copied_schema.release(&copied_schema);

  int64_t stats[5];
  RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
  const int64_t allocations = stats[0];
  RS_CHECK(stats[2] > 0);  // the first batch is still exported
  array.array.release(&array.array);
  schema.release(&schema);
  RS_CHECK(array.array.release == nullptr);
  RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
  RS_CHECK_EQ(stats[2], int64_t(0));  // every buffer is back in the pool
  RS_CHECK(stats[3] > 0);

  // The next batch of the same shape allocates nothing.
  RS_CHECK_EQ(rs_device_batch_create(pool, 2, &batch), RS_OK);
  RS_CHECK_EQ(
      rs_device_batch_add_frame_column(batch, "front", 2, 3, RS_LAYOUT_HWC, RS_DTYPE_UINT8, &col),
      RS_OK);
  rs_device_batch_free(batch);
  RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
  RS_CHECK_EQ(stats[0], allocations);
  RS_CHECK(stats[1] > 0);

  rs_pool_free(pool);
  RS_CHECK_EQ(rs_live_objects(), objects_before);
  RS_CHECK_EQ(rs_live_bytes(), bytes_before);
}

RS_TEST(device_batch_carries_its_recorded_event_until_release) {
  auto memory = std::make_shared<EventedHostMemory>();
  auto pool = std::make_shared<rs::BufferPool>(memory);
  void* first_event = nullptr;
  for (int round = 0; round < 2; ++round) {
    auto batch = std::make_unique<rs::DeviceFrameBatch>(pool, 1);
    int column = batch->add_frame_column("cam", 1, 2, 2, RS_LAYOUT_HWC, RS_DTYPE_UINT8);
    std::memset(batch->slot(column, 0), 7, 12);
    ArrowDeviceArray array;
    ArrowSchema schema;
    int stream_marker = 0;
    rs::DeviceFrameBatch::export_to(batch.get(), &stream_marker, &array, &schema);
    batch.release();  // the array owns it now
    RS_CHECK_EQ(array.device_type, ARROW_DEVICE_CUDA);
    RS_CHECK_EQ(array.device_id, int64_t(3));
    RS_CHECK(array.sync_event != nullptr);
    RS_CHECK(memory->last_stream == &stream_marker);  // recorded on the stream that wrote it
    RS_CHECK_EQ(*static_cast<int*>(array.sync_event), round + 1);
    if (round == 0) first_event = array.sync_event;
    RS_CHECK(array.sync_event == first_event);  // events are pooled, not recreated
    RS_CHECK_EQ(pool->stats().outstanding_events, int64_t(1));

    // A consumer may move a child out and release the parent first: the child's buffers stay.
    ArrowArray child = *array.array.children[0];
    array.array.children[0]->release = nullptr;
    array.array.release(&array.array);
    schema.release(&schema);
    RS_CHECK_EQ(pool->stats().outstanding_events, int64_t(1));
    const auto* values = static_cast<const uint8_t*>(child.children[0]->buffers[1]);
    RS_CHECK_EQ(int(values[11]), 7);
    child.release(&child);
    RS_CHECK_EQ(pool->stats().outstanding_events, int64_t(0));
    RS_CHECK_EQ(pool->stats().outstanding_bytes, int64_t(0));
  }
  RS_CHECK_EQ(memory->created, 1);
  pool.reset();
  RS_CHECK_EQ(memory->destroyed, 1);
}

RS_TEST(host_copy_waits_for_the_event_and_refuses_foreign_arrays) {
  auto memory = std::make_shared<EventedHostMemory>();
  auto pool = std::make_shared<rs::BufferPool>(memory);
  auto host_pool = std::make_shared<rs::BufferPool>(std::make_shared<rs::HostMemoryResource>());
  ArrowDeviceArray array;
  ArrowSchema schema;
  export_one_pixel(pool, &array, &schema);
  auto copy = rs::DeviceFrameBatch::copy_to_host(array, host_pool);
  RS_CHECK(memory->waited_for == array.sync_event);
  RS_CHECK_EQ(copy->pool().resource().device_type(), ARROW_DEVICE_CPU);

  ArrowDeviceArray foreign = array;
  foreign.array.release = [](ArrowArray* a) { a->release = nullptr; };
  bool refused = false;
  try {
    rs::DeviceFrameBatch::copy_to_host(foreign, host_pool);
  } catch (const rs::InvalidArgument&) {
    refused = true;
  }
  RS_CHECK(refused);
  array.array.release(&array.array);
  schema.release(&schema);
  // Without a driver, a CUDA pool is refused with the cause.
  int64_t cuda_pool = 0;
  if (rs_cuda_device_count() < 0) {
    RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CUDA, 0, &cuda_pool), RS_ERR_LIBRARY_UNAVAILABLE);
    RS_CHECK(std::string(rs_last_error()).find("CUDA unavailable") != std::string::npos);
    RS_CHECK_EQ(rs_nvdec_available(0), 0);
    int64_t decoder = 0;
    RS_CHECK_EQ(rs_nvdec_open(0, RS_CODEC_H264, 1, &decoder), RS_ERR_LIBRARY_UNAVAILABLE);
    // A consumer's stream cannot be made to wait on a GPU batch's event: said, not crashed.
    void* event = nullptr;
    RS_CHECK_EQ(rs_cuda_stream_wait_event(0, reinterpret_cast<int64_t>(&event), 0),
                RS_ERR_LIBRARY_UNAVAILABLE);
    RS_CHECK(std::string(rs_last_error()).find("CUDA unavailable") != std::string::npos);
  }
  // A host batch has no event: nothing to wait for, with or without a driver.
  RS_CHECK_EQ(rs_cuda_stream_wait_event(0, 0, 0), RS_OK);
  // The driver version is known exactly when libcuda.so.1 loads (a device is not needed).
  int32_t version = -1;
  const int version_rc = rs_cuda_driver_version(&version);
  if (version_rc == RS_OK) {
    RS_CHECK(version >= 1000);
  } else {
    RS_CHECK_EQ(version_rc, RS_ERR_LIBRARY_UNAVAILABLE);
    RS_CHECK(std::string(rs_last_error()).find("CUDA unavailable") != std::string::npos);
    RS_CHECK_EQ(version, -1);
    RS_CHECK(rs_cuda_device_count() < 0);
  }
}

// The C Data view of a host batch shares it with the device array: either may be released
// first, the buffers return to the pool only after both; views of GPU or foreign arrays are
// refused and leave nothing behind.
RS_TEST(host_view_shares_the_batch_until_both_arrays_are_released) {
  const int64_t objects_before = rs_live_objects();
  int64_t pool = 0;
  RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CPU, 0, &pool), RS_OK);
  for (int view_first = 0; view_first < 2; ++view_first) {
    int64_t batch = 0;
    RS_CHECK_EQ(rs_device_batch_create(pool, 2, &batch), RS_OK);
    int32_t col = -1;
    RS_CHECK_EQ(
        rs_device_batch_add_frame_column(batch, "front", 2, 3, RS_LAYOUT_HWC, RS_DTYPE_UINT8, &col),
        RS_OK);
    RS_CHECK_EQ(rs_device_batch_add_frame_column(batch, "wrist", 2, 3, RS_LAYOUT_CHW,
                                                 RS_DTYPE_FLOAT32, &col),
                RS_OK);
    fill_batch(batch, 2);
    ArrowDeviceArray array;
    ArrowSchema schema;
    RS_CHECK_EQ(rs_device_batch_export(batch, 0, &array, &schema), RS_OK);
    ArrowArray view{};
    ArrowSchema view_schema{};
    RS_CHECK_EQ(rs_device_batch_host_view(&array, &view, &view_schema), RS_OK);
    RS_CHECK_EQ(view.length, 2);
    RS_CHECK_EQ(view.n_children, 6);
    RS_CHECK_EQ(std::string(view_schema.children[3]->name), "wrist");
    RS_CHECK_EQ(metadata_value(view_schema.children[3]->metadata, "ARROW:extension:metadata"),
                std::string("{\"shape\":[3,2,3],\"dim_names\":[\"C\",\"H\",\"W\"]}"));
    // The same buffers, not a copy.
    RS_CHECK(view.children[0]->children[0]->buffers[1] ==
             array.array.children[0]->children[0]->buffers[1]);
    RS_CHECK(view.children[2]->buffers[1] == array.array.children[2]->buffers[1]);
    ArrowArray& first = view_first ? view : array.array;
    ArrowArray& second = view_first ? array.array : view;
    first.release(&first);
    int64_t stats[5];
    RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
    RS_CHECK(stats[2] > 0);  // the other array still holds the batch
    const auto* frames = static_cast<const uint8_t*>(second.children[0]->children[0]->buffers[1]);
    RS_CHECK_EQ(int(frames[18]), 11);
    second.release(&second);
    schema.release(&schema);
    view_schema.release(&view_schema);
    RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
    RS_CHECK_EQ(stats[2], int64_t(0));
    // A released array has no view.
    RS_CHECK_EQ(rs_device_batch_host_view(&array, &view, &view_schema), RS_ERR_INVALID_ARGUMENT);
  }
  rs_pool_free(pool);

  auto memory = std::make_shared<EventedHostMemory>();  // a device_type CUDA batch
  auto gpu_pool = std::make_shared<rs::BufferPool>(memory);
  ArrowDeviceArray array;
  ArrowSchema schema;
  export_one_pixel(gpu_pool, &array, &schema);
  ArrowArray view{};
  ArrowSchema view_schema{};
  RS_CHECK_EQ(rs_device_batch_host_view(&array, &view, &view_schema), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK(std::string(rs_last_error()).find("copy them to the host") != std::string::npos);
  RS_CHECK(view.release == nullptr);
  RS_CHECK(view_schema.release == nullptr);
  ArrowDeviceArray foreign = array;
  foreign.array.release = [](ArrowArray* a) { a->release = nullptr; };
  RS_CHECK_EQ(rs_device_batch_host_view(&foreign, &view, &view_schema), RS_ERR_INVALID_ARGUMENT);
  array.array.release(&array.array);
  schema.release(&schema);
  gpu_pool.reset();
  RS_CHECK_EQ(rs_live_objects(), objects_before);
}

RS_TEST(window_columns_export_t_frames_per_row_with_per_frame_pts) {
  const int64_t objects_before = rs_live_objects();
  int64_t pool = 0;
  RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CPU, 0, &pool), RS_OK);
  int64_t batch = 0;
  RS_CHECK_EQ(rs_device_batch_create(pool, 2, &batch), RS_OK);
  int32_t col = -1;
  RS_CHECK_EQ(
      rs_device_batch_add_window_column(batch, "cam", 0, 1, 1, RS_LAYOUT_CHW, RS_DTYPE_UINT8, &col),
      RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(
      rs_device_batch_add_window_column(batch, "cam", 3, 1, 2, RS_LAYOUT_CHW, RS_DTYPE_UINT8, &col),
      RS_OK);
  // Slots are row * positions + t: 2 rows x 3 frames of 6 bytes, contiguous.
  int64_t first = 0;
  int64_t last = 0;
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, col, 0, &first), RS_OK);
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, col, 5, &last), RS_OK);
  RS_CHECK_EQ(last - first, int64_t(5 * 6));
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, col, 6, &last), RS_ERR_INVALID_ARGUMENT);
  for (int slot = 0; slot < 6; ++slot) {
    int64_t address = 0;
    RS_CHECK_EQ(rs_device_batch_frame_slot(batch, col, slot, &address), RS_OK);
    std::memset(reinterpret_cast<void*>(address), slot, 6);
    RS_CHECK_EQ(rs_device_batch_set_frame_info(batch, col, slot, 0.1 * slot, 40 + slot), RS_OK);
  }
  ArrowDeviceArray array;
  ArrowSchema schema;
  RS_CHECK_EQ(rs_device_batch_export(batch, 0, &array, &schema), RS_OK);
  RS_CHECK_EQ(std::string(schema.children[0]->format), "+w:18");
  RS_CHECK_EQ(metadata_value(schema.children[0]->metadata, "ARROW:extension:metadata"),
              std::string("{\"shape\":[3,3,1,2],\"dim_names\":[\"T\",\"C\",\"H\",\"W\"]}"));
  RS_CHECK_EQ(std::string(schema.children[1]->format), "+w:3");
  RS_CHECK_EQ(std::string(schema.children[1]->children[0]->format), "g");
  RS_CHECK_EQ(std::string(schema.children[2]->format), "+w:3");
  RS_CHECK_EQ(array.array.children[1]->length, int64_t(2));
  RS_CHECK_EQ(array.array.children[1]->children[0]->length, int64_t(6));
  const auto* pts = static_cast<const double*>(array.array.children[1]->children[0]->buffers[1]);
  const auto* index = static_cast<const int64_t*>(array.array.children[2]->children[0]->buffers[1]);
  RS_CHECK_EQ(pts[4], 0.1 * 4);
  RS_CHECK_EQ(index[5], int64_t(45));
  const auto* values =
      static_cast<const uint8_t*>(array.array.children[0]->children[0]->buffers[1]);
  RS_CHECK_EQ(int(values[4 * 6]), 4);  // row 1, t = 1
  array.array.release(&array.array);
  schema.release(&schema);
  rs_pool_free(pool);
  RS_CHECK_EQ(rs_live_objects(), objects_before);
}

RS_TEST(depth_columns_hold_one_channel_of_uint16_or_float32) {
  const int64_t objects_before = rs_live_objects();
  int64_t pool = 0;
  RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CPU, 0, &pool), RS_OK);
  int64_t batch = 0;
  RS_CHECK_EQ(rs_device_batch_create(pool, 2, &batch), RS_OK);
  int32_t depth = -1;
  int32_t metres = -1;
  RS_CHECK_EQ(rs_device_batch_add_frame_column(batch, "depth", 2, 3, RS_LAYOUT_HWC,
                                               RS_DTYPE_DEPTH_UINT16, &depth),
              RS_OK);
  RS_CHECK_EQ(rs_device_batch_add_window_column(batch, "metres", 2, 2, 3, RS_LAYOUT_CHW,
                                                RS_DTYPE_DEPTH_FLOAT32, &metres),
              RS_OK);
  RS_CHECK_EQ(rs_device_batch_add_frame_column(batch, "bad", 2, 3, RS_LAYOUT_HWC, 4, &depth),
              RS_ERR_INVALID_ARGUMENT);
  // One value a pixel: a depth frame of 2x3 is 6 uint16 (12 bytes), 6 floats (24 bytes).
  int64_t first = 0;
  int64_t second = 0;
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 0, 0, &first), RS_OK);
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 0, 1, &second), RS_OK);
  RS_CHECK_EQ(second - first, int64_t(12));
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 1, 0, &first), RS_OK);
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 1, 1, &second), RS_OK);
  RS_CHECK_EQ(second - first, int64_t(24));
  for (int slot = 0; slot < 2; ++slot) {
    int64_t address = 0;
    RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 0, slot, &address), RS_OK);
    auto* values = reinterpret_cast<uint16_t*>(address);
    for (int i = 0; i < 6; ++i) values[i] = static_cast<uint16_t>(4000 + 10 * slot + i);
    RS_CHECK_EQ(rs_device_batch_set_frame_info(batch, 0, slot, 0.0, slot), RS_OK);
  }
  for (int slot = 0; slot < 4; ++slot) {
    int64_t address = 0;
    RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 1, slot, &address), RS_OK);
    std::memset(reinterpret_cast<void*>(address), 0, 24);
    RS_CHECK_EQ(rs_device_batch_set_frame_info(batch, 1, slot, 0.0, slot), RS_OK);
  }
  ArrowDeviceArray array;
  ArrowSchema schema;
  RS_CHECK_EQ(rs_device_batch_export(batch, 0, &array, &schema), RS_OK);
  RS_CHECK_EQ(std::string(schema.children[0]->format), "+w:6");
  RS_CHECK_EQ(std::string(schema.children[0]->children[0]->format), "S");
  RS_CHECK_EQ(metadata_value(schema.children[0]->metadata, "ARROW:extension:metadata"),
              std::string("{\"shape\":[2,3,1],\"dim_names\":[\"H\",\"W\",\"C\"]}"));
  RS_CHECK_EQ(std::string(schema.children[3]->format), "+w:12");
  RS_CHECK_EQ(std::string(schema.children[3]->children[0]->format), "f");
  RS_CHECK_EQ(metadata_value(schema.children[3]->metadata, "ARROW:extension:metadata"),
              std::string("{\"shape\":[2,1,2,3],\"dim_names\":[\"T\",\"C\",\"H\",\"W\"]}"));
  const auto* values =
      static_cast<const uint16_t*>(array.array.children[0]->children[0]->buffers[1]);
  RS_CHECK_EQ(array.array.children[0]->children[0]->length, int64_t(12));
  RS_CHECK_EQ(int(values[6 + 5]), 4015);  // row 1, pixel 5: not squashed to 8 bits
  array.array.release(&array.array);
  schema.release(&schema);
  rs_pool_free(pool);
  RS_CHECK_EQ(rs_live_objects(), objects_before);
}

RS_TEST(pool_buffers_copy_and_expand_on_the_pool_device) {
  int64_t pool = 0;
  RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CPU, 0, &pool), RS_OK);
  int64_t held = 0;
  RS_CHECK_EQ(rs_pool_acquire(pool, 4, &held), RS_OK);
  const uint8_t source[4] = {0, 1, 128, 255};
  RS_CHECK_EQ(rs_pool_upload(pool, held, source, 4, 0), RS_OK);
  int64_t copy = 0;
  RS_CHECK_EQ(rs_pool_acquire(pool, 4, &copy), RS_OK);
  int64_t stream = -1;
  RS_CHECK_EQ(rs_pool_stream_create(pool, &stream), RS_OK);
  RS_CHECK_EQ(stream, int64_t(0));  // the host has no streams
  RS_CHECK_EQ(rs_pool_copy(pool, copy, held, 4, stream), RS_OK);
  RS_CHECK(std::memcmp(reinterpret_cast<void*>(copy), source, 4) == 0);
  int64_t floats = 0;
  RS_CHECK_EQ(rs_pool_acquire(pool, 16, &floats), RS_OK);
  RS_CHECK_EQ(rs_pool_expand_unit_floats(pool, floats, held, 4, stream), RS_OK);
  RS_CHECK_EQ(rs_pool_stream_sync(pool, stream), RS_OK);
  const auto* f = reinterpret_cast<const float*>(floats);
  RS_CHECK_EQ(f[0], 0.0f);
  RS_CHECK_EQ(f[1], 1.0f / 255.0f);
  RS_CHECK_EQ(f[2], 128.0f / 255.0f);
  RS_CHECK_EQ(f[3], 1.0f);
  RS_CHECK_EQ(rs_pool_copy(pool, copy, 0, 4, stream), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_pool_copy(pool, copy, held, 0, stream), RS_ERR_INVALID_ARGUMENT);
  int64_t stats[5];
  RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
  RS_CHECK_EQ(stats[2], int64_t(24));  // three buffers out
  RS_CHECK_EQ(rs_pool_release(pool, held, 4), RS_OK);
  RS_CHECK_EQ(rs_pool_release(pool, copy, 4), RS_OK);
  RS_CHECK_EQ(rs_pool_release(pool, floats, 16), RS_OK);
  RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
  RS_CHECK_EQ(stats[2], int64_t(0));
  int64_t again = 0;
  RS_CHECK_EQ(rs_pool_acquire(pool, 4, &again), RS_OK);  // recycled by size
  RS_CHECK(again == held || again == copy);
  RS_CHECK_EQ(rs_pool_release(pool, again, 4), RS_OK);
  rs_pool_stream_free(pool, stream);
  rs_pool_free(pool);
}

namespace {

// A batch of `rows` with one uint8 HWC column "cam" of `positions` frames of 2x3 per row.
int64_t batch_with_one_column(int64_t pool, int64_t rows, int positions) {
  int64_t batch = 0;
  RS_CHECK_EQ(rs_device_batch_create(pool, rows, &batch), RS_OK);
  int32_t col = -1;
  RS_CHECK_EQ(rs_device_batch_add_window_column(batch, "cam", positions, 2, 3, RS_LAYOUT_HWC,
                                                RS_DTYPE_UINT8, &col),
              RS_OK);
  return batch;
}

int64_t slot_address(int64_t batch, int64_t slot) {
  int64_t address = 0;
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 0, slot, &address), RS_OK);
  return address;
}

// The slot addresses of two new batches of one shape: distinct unless the pool holds a buffer
// twice.
void check_pool_hands_out_distinct_buffers(int64_t pool) {
  int64_t first = batch_with_one_column(pool, 2, 1);
  int64_t second = batch_with_one_column(pool, 2, 1);
  RS_CHECK(slot_address(first, 0) != slot_address(second, 0));
  rs_device_batch_free(first);
  rs_device_batch_free(second);
}

}  // namespace

// robostream.h's ownership rule: a failed device export leaves the batch with the caller. Each
// allocation of the export (pts / frame_index buffers, every Arrow node) fails once in turn, on a
// fresh pool so that each is a real allocation. Before the rule, the core freed the batch and the
// caller's free returned its buffers to the pool a second time, which then handed one buffer to
// two batches.
RS_TEST(device_export_failure_at_any_allocation_leaves_the_batch_with_the_caller) {
  const int64_t objects_before = rs_live_objects();
  const int64_t bytes_before = rs_live_bytes();
  int failures = 0;
  for (int64_t pass = 0;; ++pass) {
    int64_t pool = 0;
    RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CPU, 0, &pool), RS_OK);
    const int64_t batch = batch_with_one_column(pool, 2, 2);
    const int64_t slot = slot_address(batch, 3);
    ArrowDeviceArray array{};
    ArrowSchema schema{};
    rs_debug_fail_allocations(pass, 1);
    const int rc = rs_device_batch_export(batch, 0, &array, &schema);
    rs_debug_fail_allocations(0, 0);
    if (rc == RS_OK) {
      array.array.release(&array.array);
      schema.release(&schema);
      rs_pool_free(pool);
      break;
    }
    ++failures;
    RS_CHECK_EQ(rc, RS_ERR_OUT_OF_MEMORY);
    RS_CHECK(array.array.release == nullptr);
    RS_CHECK(schema.release == nullptr);
    RS_CHECK_EQ(slot_address(batch, 3), slot);  // still the caller's
    rs_device_batch_free(batch);
    int64_t stats[5];
    RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
    RS_CHECK_EQ(stats[2], int64_t(0));  // nothing outstanding
    check_pool_hands_out_distinct_buffers(pool);
    rs_pool_free(pool);
    RS_CHECK_EQ(rs_live_objects(), objects_before);
    RS_CHECK_EQ(rs_live_bytes(), bytes_before);
  }
  RS_CHECK(failures >= 10);  // two buffers and the nodes of a window column
  RS_CHECK_EQ(rs_live_objects(), objects_before);
  RS_CHECK_EQ(rs_live_bytes(), bytes_before);
}

// After a failed export the caller may simply export again: what the first attempt acquired is
// reused, not leaked.
RS_TEST(device_export_can_be_retried_after_a_failure) {
  int64_t pool = 0;
  RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CPU, 0, &pool), RS_OK);
  const int64_t batch = batch_with_one_column(pool, 1, 1);
  RS_CHECK_EQ(rs_device_batch_set_frame_info(batch, 0, 0, 0.25, 9), RS_OK);
  ArrowDeviceArray array{};
  ArrowSchema schema{};
  rs_debug_fail_allocations(1, 1);  // the pts buffer is taken, the frame_index buffer fails
  RS_CHECK_EQ(rs_device_batch_export(batch, 0, &array, &schema), RS_ERR_OUT_OF_MEMORY);
  rs_debug_fail_allocations(0, 0);
  RS_CHECK_EQ(rs_device_batch_export(batch, 0, &array, &schema), RS_OK);
  RS_CHECK_EQ(static_cast<const int64_t*>(array.array.children[2]->buffers[1])[0], int64_t(9));
  int64_t stats[5];
  RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
  RS_CHECK_EQ(stats[0], int64_t(3));  // frames, pts, frame_index: nothing taken twice
  array.array.release(&array.array);
  schema.release(&schema);
  RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
  RS_CHECK_EQ(stats[2], int64_t(0));
  rs_pool_free(pool);
}

RS_TEST(a_buffer_released_twice_is_refused_and_never_pooled_twice) {
  int64_t pool = 0;
  RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CPU, 0, &pool), RS_OK);
  int64_t held = 0;
  RS_CHECK_EQ(rs_pool_acquire(pool, 64, &held), RS_OK);
  RS_CHECK_EQ(rs_pool_release(pool, held, 32), RS_ERR_INVALID_ARGUMENT);  // another size
  RS_CHECK_EQ(rs_pool_release(pool, held, 64), RS_OK);
  RS_CHECK_EQ(rs_pool_release(pool, held, 64), RS_ERR_INVALID_ARGUMENT);
  int64_t stranger = 12345 * 64;
  RS_CHECK_EQ(rs_pool_release(pool, stranger, 64), RS_ERR_INVALID_ARGUMENT);
  int64_t a = 0;
  int64_t b = 0;
  RS_CHECK_EQ(rs_pool_acquire(pool, 64, &a), RS_OK);
  RS_CHECK_EQ(rs_pool_acquire(pool, 64, &b), RS_OK);
  RS_CHECK(a != b);
  RS_CHECK_EQ(rs_pool_release(pool, a, 64), RS_OK);
  RS_CHECK_EQ(rs_pool_release(pool, b, 64), RS_OK);
  rs_pool_free(pool);
}
