#include "arrow/frame_batch.hpp"

#include <cstdlib>
#include <cstring>
#include <limits>

#include "core/errors.hpp"

namespace rs {

AlignedBuffer::AlignedBuffer(int64_t bytes) : data_(nullptr), size_(bytes) {
  if (bytes < 0) throw InvalidArgument("negative buffer size");
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
  if (rows < 0) throw InvalidArgument("negative row count");
}

int FrameBatch::add_frame_column(const std::string& name, int height, int width, int layout) {
  if (name.empty()) throw InvalidArgument("frame column needs a name");
  if (height <= 0 || width <= 0) throw InvalidArgument("frame column " + name + " has no size");
  if (layout != RS_LAYOUT_HWC && layout != RS_LAYOUT_CHW) {
    throw InvalidArgument("unknown layout " + std::to_string(layout));
  }
  for (const auto& c : columns_) {
    if (c.name == name) throw InvalidArgument("duplicate frame column " + name);
  }
  const int64_t frame_bytes = static_cast<int64_t>(height) * width * 3;
  if (frame_bytes > std::numeric_limits<int32_t>::max()) {
    throw Unsupported("frame of " + std::to_string(frame_bytes) + " bytes exceeds list size");
  }
  FrameColumn column;
  column.name = name;
  column.height = height;
  column.width = width;
  column.layout = layout;
  column.frame_bytes = frame_bytes;
  column.frames = std::make_unique<AlignedBuffer>(frame_bytes * rows_);
  column.pts = std::make_unique<AlignedBuffer>(static_cast<int64_t>(sizeof(double)) * rows_);
  column.frame_index = std::make_unique<AlignedBuffer>(static_cast<int64_t>(sizeof(int64_t)) * rows_);
  std::memset(column.pts->data(), 0, static_cast<size_t>(column.pts->size()));
  std::memset(column.frame_index->data(), 0, static_cast<size_t>(column.frame_index->size()));
  columns_.push_back(std::move(column));
  return static_cast<int>(columns_.size() - 1);
}

const FrameColumn& FrameBatch::column(int index) const {
  if (index < 0 || index >= static_cast<int>(columns_.size())) {
    throw InvalidArgument("no frame column " + std::to_string(index));
  }
  return columns_[static_cast<size_t>(index)];
}

void FrameBatch::check_row(int64_t row) const {
  if (row < 0 || row >= rows_) {
    throw InvalidArgument("row " + std::to_string(row) + " outside batch of " +
                          std::to_string(rows_));
  }
}

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
  const std::string h = std::to_string(c.height);
  const std::string w = std::to_string(c.width);
  if (c.layout == RS_LAYOUT_HWC) {
    return "{\"shape\":[" + h + "," + w + ",3],\"dim_names\":[\"H\",\"W\",\"C\"]}";
  }
  return "{\"shape\":[3," + h + "," + w + "],\"dim_names\":[\"C\",\"H\",\"W\"]}";
}

namespace {

// ------------------------------------------------------------------ schema export

// Encodes key/value pairs in the C Data interface's metadata layout (native-endian int32 lengths).
std::string encode_metadata(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  auto put_int = [&out](int32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put_int(static_cast<int32_t>(pairs.size()));
  for (const auto& [key, value] : pairs) {
    put_int(static_cast<int32_t>(key.size()));
    out += key;
    put_int(static_cast<int32_t>(value.size()));
    out += value;
  }
  return out;
}

struct SchemaNode {
  std::string format;
  std::string name;
  std::string metadata;  // empty: none
  std::vector<ArrowSchema*> children;
};

void release_schema(ArrowSchema* schema) {
  if (!schema || !schema->release) return;
  auto* node = static_cast<SchemaNode*>(schema->private_data);
  for (ArrowSchema* child : node->children) {
    if (child->release) child->release(child);
    delete child;
  }
  delete node;
  schema->release = nullptr;
}

void fill_schema(ArrowSchema* out, SchemaNode* node) {
  out->format = node->format.c_str();
  out->name = node->name.c_str();
  out->metadata = node->metadata.empty() ? nullptr : node->metadata.data();
  out->flags = 0;
  out->n_children = static_cast<int64_t>(node->children.size());
  out->children = node->children.empty() ? nullptr : node->children.data();
  out->dictionary = nullptr;
  out->release = &release_schema;
  out->private_data = node;
}

ArrowSchema* new_schema(std::string format, std::string name, std::string metadata = {},
                        std::vector<ArrowSchema*> children = {}) {
  auto* node = new SchemaNode{std::move(format), std::move(name), std::move(metadata),
                              std::move(children)};
  auto* schema = new ArrowSchema;
  fill_schema(schema, node);
  return schema;
}

// ------------------------------------------------------------------ array export

struct ArrayNode {
  std::shared_ptr<FrameBatch> batch;  // keeps every buffer alive until the last release
  std::vector<const void*> buffers;
  std::vector<ArrowArray*> children;
};

void release_array(ArrowArray* array) {
  if (!array || !array->release) return;
  auto* node = static_cast<ArrayNode*>(array->private_data);
  for (ArrowArray* child : node->children) {
    // A consumer may have moved a child out (and released it itself).
    if (child->release) child->release(child);
    delete child;
  }
  delete node;
  array->release = nullptr;
}

void fill_array(ArrowArray* out, ArrayNode* node, int64_t length) {
  out->length = length;
  out->null_count = 0;
  out->offset = 0;
  out->n_buffers = static_cast<int64_t>(node->buffers.size());
  out->n_children = static_cast<int64_t>(node->children.size());
  out->buffers = node->buffers.data();
  out->children = node->children.empty() ? nullptr : node->children.data();
  out->dictionary = nullptr;
  out->release = &release_array;
  out->private_data = node;
}

ArrowArray* new_array(const std::shared_ptr<FrameBatch>& batch, int64_t length,
                      std::vector<const void*> buffers, std::vector<ArrowArray*> children = {}) {
  auto* node = new ArrayNode{batch, std::move(buffers), std::move(children)};
  auto* array = new ArrowArray;
  fill_array(array, node, length);
  return array;
}

}  // namespace

void FrameBatch::export_to(std::unique_ptr<FrameBatch> owned, ArrowArray* out_array,
                           ArrowSchema* out_schema) {
  if (!out_array || !out_schema) throw InvalidArgument("null ArrowArray or ArrowSchema");
  std::shared_ptr<FrameBatch> batch(std::move(owned));
  const int64_t rows = batch->rows();

  std::vector<ArrowSchema*> fields;
  std::vector<ArrowArray*> arrays;
  for (const FrameColumn& c : batch->columns()) {
    const std::string tensor_metadata =
        encode_metadata({{"ARROW:extension:name", "arrow.fixed_shape_tensor"},
                         {"ARROW:extension:metadata", fixed_shape_tensor_metadata(c)}});
    fields.push_back(new_schema("+w:" + std::to_string(c.frame_bytes), c.name, tensor_metadata,
                                {new_schema("C", "item")}));
    fields.push_back(new_schema("g", c.name + ".pts"));
    fields.push_back(new_schema("l", c.name + ".frame_index"));

    ArrowArray* values = new_array(batch, rows * c.frame_bytes, {nullptr, c.frames->data()});
    arrays.push_back(new_array(batch, rows, {nullptr}, {values}));
    arrays.push_back(new_array(batch, rows, {nullptr, c.pts->data()}));
    arrays.push_back(new_array(batch, rows, {nullptr, c.frame_index->data()}));
  }
  ArrowSchema* root_schema = new_schema("+s", "", {}, std::move(fields));
  ArrowArray* root_array = new_array(batch, rows, {nullptr}, std::move(arrays));
  // The caller owns the structs: move the roots' contents into them.
  *out_schema = *root_schema;
  *out_array = *root_array;
  delete root_schema;
  delete root_array;
}

}  // namespace rs
