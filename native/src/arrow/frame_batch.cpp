#include "arrow/frame_batch.hpp"

#include <cstdlib>
#include <cstring>

#include "arrow/c_export.hpp"
#include "arrow/batch_checks.hpp"
#include "core/allocation_faults.hpp"
#include "core/errors.hpp"
#include "core/sizes.hpp"

namespace rs {

AlignedBuffer::AlignedBuffer(int64_t bytes) : data_(nullptr), size_(bytes) {
  if (bytes < 0 || bytes > sizes::kMaxBufferBytes) {
    throw InvalidArgument("buffer of " + std::to_string(bytes) + " bytes");
  }
  allocation_fault_point("a batch buffer");
  // aligned_alloc requires a size that is a multiple of the alignment.
  const int64_t rounded = ((bytes + 63) / 64) * 64;
  data_ = static_cast<uint8_t*>(std::aligned_alloc(64, static_cast<size_t>(rounded ? rounded : 64)));
  if (!data_) throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes");
  live_bytes().fetch_add(size_, std::memory_order_relaxed);
}

AlignedBuffer::~AlignedBuffer() {
  std::free(data_);
  live_bytes().fetch_sub(size_, std::memory_order_relaxed);
}

FrameBatch::FrameBatch(int64_t rows) : rows_(rows) {
  if (rows < 0 || rows > sizes::kMaxRows) {
    throw InvalidArgument("batch of " + std::to_string(rows) + " rows (must be 0.." +
                          std::to_string(sizes::kMaxRows) + ")");
  }
}

int FrameBatch::add_frame_column(const std::string& name, int height, int width, int layout) {
  batch_checks::check_new_column(columns_, name, height, width, layout);
  // Bounded sides keep this product far below int32 (a FixedSizeList's size).
  const int64_t frame_bytes = int64_t{3} * height * width;
  const int64_t column_bytes = sizes::multiply(frame_bytes, rows_, "frame column " + name);
  FrameColumn column;
  column.name = name;
  column.height = height;
  column.width = width;
  column.layout = layout;
  column.frame_bytes = frame_bytes;
  column.frames = std::make_unique<AlignedBuffer>(column_bytes);
  column.pts = std::make_unique<AlignedBuffer>(static_cast<int64_t>(sizeof(double)) * rows_);
  column.frame_index = std::make_unique<AlignedBuffer>(static_cast<int64_t>(sizeof(int64_t)) * rows_);
  std::memset(column.pts->data(), 0, static_cast<size_t>(column.pts->size()));
  std::memset(column.frame_index->data(), 0, static_cast<size_t>(column.frame_index->size()));
  columns_.push_back(std::move(column));
  return static_cast<int>(columns_.size() - 1);
}

const FrameColumn& FrameBatch::column(int index) const {
  return batch_checks::column_at(columns_, index);
}

void FrameBatch::check_row(int64_t row) const { batch_checks::check_row(row, rows_); }

uint8_t* FrameBatch::slot(int index, int64_t row) const {
  const FrameColumn& c = column(index);
  check_row(row);
  return c.frames->data() + row * c.frame_bytes;
}

void FrameBatch::set_frame_info(int index, int64_t row, double pts_seconds, int64_t frame_index) {
  const FrameColumn& c = column(index);
  check_row(row);
  reinterpret_cast<double*>(c.pts->data())[row] = pts_seconds;
  reinterpret_cast<int64_t*>(c.frame_index->data())[row] = frame_index;
}

std::string fixed_shape_tensor_metadata(const FrameColumn& c) {
  return arrow_export::image_tensor_metadata(c.height, c.width, c.layout);
}

void FrameBatch::export_to(FrameBatch* batch, ArrowArray* out_array, ArrowSchema* out_schema) {
  if (!batch) throw InvalidArgument("null batch");
  if (!out_array || !out_schema) throw InvalidArgument("null ArrowArray or ArrowSchema");
  // The nodes keep this holder alive; it receives the batch only once every node exists, so a
  // failure while building leaves the batch with the caller (robostream.h's ownership rule).
  auto holder = std::make_shared<std::unique_ptr<FrameBatch>>();
  const int64_t rows = batch->rows();

  using namespace arrow_export;
  std::vector<SchemaPtr> fields;
  std::vector<ArrayPtr> arrays;
  for (const FrameColumn& c : batch->columns()) {
    fields.push_back(
        fixed_shape_tensor_schema(c.name, "C", c.frame_bytes, fixed_shape_tensor_metadata(c)));
    fields.push_back(new_schema("g", c.name + ".pts"));
    fields.push_back(new_schema("l", c.name + ".frame_index"));

    std::vector<ArrayPtr> values;
    values.push_back(new_array(holder, rows * c.frame_bytes, {nullptr, c.frames->data()}));
    arrays.push_back(new_array(holder, rows, {nullptr}, std::move(values)));
    arrays.push_back(new_array(holder, rows, {nullptr, c.pts->data()}));
    arrays.push_back(new_array(holder, rows, {nullptr, c.frame_index->data()}));
  }
  SchemaPtr schema_root = new_schema("+s", "", {}, std::move(fields));
  ArrayPtr array_root = new_array(holder, rows, {nullptr}, std::move(arrays));
  holder->reset(batch);
  // The caller owns the structs: move the roots' contents into them.
  move_root(std::move(schema_root), out_schema);
  move_root(std::move(array_root), out_array);
}

}  // namespace rs
