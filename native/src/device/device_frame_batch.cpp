#include "device/device_frame_batch.hpp"

#include <limits>

#include "arrow/c_export.hpp"
#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "robostream/robostream.h"

namespace rs {
namespace {

// Identifies DeviceFrameBatch owners among exported arrays (see arrow_export::owner_of).
const char kDeviceBatchKind = 0;

// What one value of a frame column of `dtype` is: its bytes, the Arrow format, and the channels
// of a pixel (3 RGB, 1 depth).
struct ValueType {
  int bytes;
  const char* format;
  int channels;
};

ValueType value_type(int dtype) {
  switch (dtype) {
    case RS_DTYPE_UINT8:
      return {1, "C", 3};
    case RS_DTYPE_FLOAT32:
      return {4, "f", 3};
    case RS_DTYPE_DEPTH_UINT16:
      return {2, "S", 1};
    case RS_DTYPE_DEPTH_FLOAT32:
      return {4, "f", 1};
    default:
      throw InvalidArgument("unknown frame dtype " + std::to_string(dtype));
  }
}

// A new frame column needs a unique name, a bounded size and a known layout: the C API hands
// names, sizes and layouts straight from callers.
void check_new_column(const std::vector<DeviceFrameColumn>& existing, const std::string& name,
                      int height, int width, int layout) {
  if (name.empty()) throw InvalidArgument("frame column needs a name");
  sizes::check_frame_size("frame column " + name, height, width);
  if (layout != RS_LAYOUT_HWC && layout != RS_LAYOUT_CHW) {
    throw InvalidArgument("unknown layout " + std::to_string(layout));
  }
  for (const auto& c : existing) {
    if (c.name == name) throw InvalidArgument("duplicate frame column " + name);
  }
}

// The struct array of a batch's columns over its buffers (frames, then per frame pts and
// frame_index), each array node holding `owner`, the keep-alive of the batch. Per column: the
// fixed_shape_tensor column, then "<name>.pts" and "<name>.frame_index", plain for one frame per
// row and FixedSizeList<T> for windows. Nothing is exported until the caller moves the roots out,
// so a failed allocation here releases every node built so far and leaves the batch as it was.
struct ExportNodes {
  arrow_export::SchemaPtr schema;
  arrow_export::ArrayPtr array;
};

ExportNodes build_nodes(const DeviceFrameBatch& batch, const std::shared_ptr<void>& owner) {
  using namespace arrow_export;
  const void* kind = &kDeviceBatchKind;
  const int64_t rows = batch.rows();
  std::vector<SchemaPtr> fields;
  std::vector<ArrayPtr> arrays;
  for (const auto& c : batch.columns()) {
    const ValueType type = value_type(c.dtype);
    fields.push_back(fixed_shape_tensor_schema(
        c.name, type.format, c.positions * c.elements,
        image_tensor_metadata(c.height, c.width, c.layout, c.positions, type.channels)));
    std::vector<ArrayPtr> values;
    values.push_back(new_array(owner, c.slots * c.elements, {nullptr, c.frames}, {}, kind));
    arrays.push_back(new_array(owner, rows, {nullptr}, std::move(values), kind));
    auto per_frame = [&](const char* format, const std::string& name, void* buffer) {
      ArrayPtr flat = new_array(owner, c.slots, {nullptr, buffer}, {}, kind);
      if (c.positions == 1) {
        fields.push_back(new_schema(format, name));
        arrays.push_back(std::move(flat));
        return;
      }
      std::vector<SchemaPtr> item;
      item.push_back(new_schema(format, "item"));
      fields.push_back(new_schema("+w:" + std::to_string(c.positions), name, {}, std::move(item)));
      std::vector<ArrayPtr> items;
      items.push_back(std::move(flat));
      arrays.push_back(new_array(owner, rows, {nullptr}, std::move(items), kind));
    };
    per_frame("g", c.name + ".pts", c.pts_buffer);
    per_frame("l", c.name + ".frame_index", c.index_buffer);
  }
  ExportNodes nodes;
  nodes.schema = new_schema("+s", "", {}, std::move(fields));
  nodes.array = new_array(owner, rows, {nullptr}, std::move(arrays), kind);
  return nodes;
}

// The batch behind an array exported by export_to, or nullptr for any other array.
const DeviceFrameBatch* exported_batch(const ArrowArray& array, std::shared_ptr<void>& owner) {
  owner = arrow_export::owner_of(&array, &kDeviceBatchKind);
  if (!owner) return nullptr;
  return static_cast<const std::unique_ptr<DeviceFrameBatch>*>(owner.get())->get();
}

}  // namespace

DeviceFrameBatch::DeviceFrameBatch(std::shared_ptr<BufferPool> pool, int64_t rows)
    : pool_(std::move(pool)), rows_(rows) {
  if (!pool_) throw InvalidArgument("device batch without a buffer pool");
  if (rows <= 0 || rows > sizes::kMaxRows) {
    throw InvalidArgument("device batch of " + std::to_string(rows) + " rows (must be 1.." +
                          std::to_string(sizes::kMaxRows) + ")");
  }
}

DeviceFrameBatch::~DeviceFrameBatch() {
  for (auto& c : columns_) {
    pool_->release(c.frames, c.frames_bytes);
    pool_->release(c.pts_buffer, c.slots * static_cast<int64_t>(sizeof(double)));
    pool_->release(c.index_buffer, c.slots * static_cast<int64_t>(sizeof(int64_t)));
  }
  pool_->release_event(event_);
}

int DeviceFrameBatch::add_frame_column(const std::string& name, int positions, int height,
                                       int width, int layout, int dtype) {
  check_new_column(columns_, name, height, width, layout);
  if (positions < 1 || positions > sizes::kMaxWindow) {
    throw InvalidArgument("frame column " + name + " has " + std::to_string(positions) +
                          " frames per row (must be 1.." + std::to_string(sizes::kMaxWindow) + ")");
  }
  const std::string what = "frame column " + name;
  DeviceFrameColumn c;
  c.name = name;
  c.positions = positions;
  c.height = height;
  c.width = width;
  c.layout = layout;
  c.dtype = dtype;
  const ValueType type = value_type(dtype);
  c.elements = int64_t{type.channels} * height * width;  // bounded sides: no overflow
  const int64_t row_values = sizes::multiply(c.elements, positions, what + "'s row");
  if (row_values > std::numeric_limits<int32_t>::max()) {
    throw InvalidArgument(what + ": a row of " + std::to_string(row_values) +
                          " values exceeds an Arrow list's size");
  }
  c.frame_bytes = sizes::multiply(c.elements, type.bytes, what + "'s frame");
  c.slots = sizes::multiply(rows_, positions, what + "'s slots");
  c.frames_bytes = sizes::multiply(c.slots, c.frame_bytes, what);
  c.pts.assign(static_cast<size_t>(c.slots), 0.0);
  c.frame_index.assign(static_cast<size_t>(c.slots), 0);
  columns_.reserve(columns_.size() + 1);
  // Acquired last: nothing after it can throw, so a failed call never keeps a pooled buffer.
  c.frames = pool_->acquire(c.frames_bytes);
  columns_.push_back(std::move(c));
  return static_cast<int>(columns_.size() - 1);
}

const DeviceFrameColumn& DeviceFrameBatch::column(int index) const {
  if (index < 0 || index >= static_cast<int>(columns_.size())) {
    throw InvalidArgument("no frame column " + std::to_string(index));
  }
  return columns_[static_cast<size_t>(index)];
}

void DeviceFrameBatch::check_slot(const DeviceFrameColumn& c, int64_t slot) const {
  if (slot < 0 || slot >= c.slots) {
    throw InvalidArgument("slot " + std::to_string(slot) + " outside " + c.name + " (" +
                          std::to_string(rows_) + " rows x " + std::to_string(c.positions) +
                          " frames)");
  }
}

void* DeviceFrameBatch::slot(int index, int64_t slot) const {
  const DeviceFrameColumn& c = column(index);
  check_slot(c, slot);
  return static_cast<uint8_t*>(c.frames) + slot * c.frame_bytes;
}

void DeviceFrameBatch::set_frame_info(int index, int64_t slot, double pts_seconds,
                                      int64_t frame_index) {
  check_slot(column(index), slot);
  auto& c = columns_[static_cast<size_t>(index)];
  c.pts[static_cast<size_t>(slot)] = pts_seconds;
  c.frame_index[static_cast<size_t>(slot)] = frame_index;
}

void DeviceFrameBatch::prepare_export(void* stream) {
  MemoryResource& memory = pool_->resource();
  // Per the C Device interface every buffer lives on the array's device: copy the small per-row
  // columns there too.
  for (auto& c : columns_) {
    const int64_t pts_bytes = c.slots * static_cast<int64_t>(sizeof(double));
    const int64_t index_bytes = c.slots * static_cast<int64_t>(sizeof(int64_t));
    if (!c.pts_buffer) c.pts_buffer = pool_->acquire(pts_bytes);
    if (!c.index_buffer) c.index_buffer = pool_->acquire(index_bytes);
    memory.copy_from_host(c.pts_buffer, c.pts.data(), pts_bytes, stream);
    memory.copy_from_host(c.index_buffer, c.frame_index.data(), index_bytes, stream);
  }
  if (!event_) event_ = pool_->acquire_event();
  memory.record_event(event_, stream);
}

void DeviceFrameBatch::export_to(DeviceFrameBatch* batch, void* stream, ArrowDeviceArray* out_array,
                                 ArrowSchema* out_schema) {
  if (!out_array || !out_schema) throw InvalidArgument("null ArrowDeviceArray or ArrowSchema");
  if (!batch) throw InvalidArgument("null device batch");
  batch->prepare_export(stream);
  // The nodes keep this holder alive; it receives the batch only once every node exists, so a
  // failure while building leaves the batch with the caller (robostream.h's ownership rule).
  auto holder = std::make_shared<std::unique_ptr<DeviceFrameBatch>>();
  ExportNodes nodes = build_nodes(*batch, holder);
  holder->reset(batch);
  MemoryResource& memory = batch->pool_->resource();
  out_array->device_id = memory.device_id();
  out_array->device_type = memory.device_type();
  out_array->sync_event = batch->event_;
  for (auto& r : out_array->reserved) r = 0;
  arrow_export::move_root(std::move(nodes.schema), out_schema);
  arrow_export::move_root(std::move(nodes.array), &out_array->array);
}

void DeviceFrameBatch::host_view(const ArrowDeviceArray& exported, ArrowArray* out_array,
                                 ArrowSchema* out_schema) {
  if (!out_array || !out_schema) throw InvalidArgument("null ArrowArray or ArrowSchema");
  std::shared_ptr<void> owner;
  const DeviceFrameBatch* batch = exported_batch(exported.array, owner);
  if (!batch) {
    throw InvalidArgument("not a live robostream device batch (released, or made elsewhere)");
  }
  const MemoryResource& memory = batch->pool_->resource();
  if (memory.device_type() != ARROW_DEVICE_CPU) {
    throw InvalidArgument("the batch's frames are on device " + std::to_string(memory.device_id()) +
                          ", not in host memory: copy them to the host first");
  }
  // The view's nodes share the batch's holder: its buffers stay until both arrays are released.
  ExportNodes nodes = build_nodes(*batch, owner);
  arrow_export::move_root(std::move(nodes.schema), out_schema);
  arrow_export::move_root(std::move(nodes.array), out_array);
}

std::unique_ptr<DeviceFrameBatch> DeviceFrameBatch::copy_to_host(
    const ArrowDeviceArray& exported, std::shared_ptr<BufferPool> host_pool) {
  std::shared_ptr<void> owner;
  const DeviceFrameBatch* source = exported_batch(exported.array, owner);
  if (!source) {
    throw InvalidArgument("not a live robostream device batch (released, or made elsewhere)");
  }
  if (!host_pool || host_pool->resource().device_type() != ARROW_DEVICE_CPU) {
    throw InvalidArgument("host copy needs a host buffer pool");
  }
  MemoryResource& memory = source->pool_->resource();
  memory.wait_event(source->event_);
  auto copy = std::make_unique<DeviceFrameBatch>(std::move(host_pool), source->rows_);
  for (const auto& c : source->columns_) {
    int index = copy->add_frame_column(c.name, c.positions, c.height, c.width, c.layout, c.dtype);
    memory.copy_to_host(copy->columns_[static_cast<size_t>(index)].frames, c.frames,
                        c.frames_bytes);
    copy->columns_[static_cast<size_t>(index)].pts = c.pts;
    copy->columns_[static_cast<size_t>(index)].frame_index = c.frame_index;
  }
  return copy;
}

}  // namespace rs
