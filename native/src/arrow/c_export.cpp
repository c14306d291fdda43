#include "arrow/c_export.hpp"

#include <cstdint>

#include "core/allocation_faults.hpp"
#include "robostream/robostream.h"

namespace rs::arrow_export {
namespace {

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

struct ArrayNode {
  std::shared_ptr<void> owner;  // keeps the buffers alive until the last release
  const void* owner_kind;
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

}  // namespace

void SchemaDeleter::operator()(ArrowSchema* schema) const noexcept {
  release_schema(schema);
  delete schema;
}

void ArrayDeleter::operator()(ArrowArray* array) const noexcept {
  release_array(array);
  delete array;
}

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

SchemaPtr new_schema(std::string format, std::string name, std::string metadata,
                     std::vector<SchemaPtr> children) {
  allocation_fault_point("an Arrow schema node");
  auto node = std::make_unique<SchemaNode>(
      SchemaNode{std::move(format), std::move(name), std::move(metadata), {}});
  node->children.reserve(children.size());
  SchemaPtr schema(new ArrowSchema{});
  // Nothing below throws: the node takes the children over only now.
  for (SchemaPtr& child : children) node->children.push_back(child.release());
  schema->format = node->format.c_str();
  schema->name = node->name.c_str();
  schema->metadata = node->metadata.empty() ? nullptr : node->metadata.data();
  schema->flags = 0;
  schema->n_children = static_cast<int64_t>(node->children.size());
  schema->children = node->children.empty() ? nullptr : node->children.data();
  schema->dictionary = nullptr;
  schema->release = &release_schema;
  schema->private_data = node.release();
  return schema;
}

ArrayPtr new_array(std::shared_ptr<void> owner, int64_t length, std::vector<const void*> buffers,
                   std::vector<ArrayPtr> children, const void* owner_kind) {
  allocation_fault_point("an Arrow array node");
  auto node =
      std::make_unique<ArrayNode>(ArrayNode{std::move(owner), owner_kind, std::move(buffers), {}});
  node->children.reserve(children.size());
  ArrayPtr array(new ArrowArray{});
  // Nothing below throws: the node takes the children over only now.
  for (ArrayPtr& child : children) node->children.push_back(child.release());
  array->length = length;
  array->null_count = 0;
  array->offset = 0;
  array->n_buffers = static_cast<int64_t>(node->buffers.size());
  array->n_children = static_cast<int64_t>(node->children.size());
  array->buffers = node->buffers.data();
  array->children = node->children.empty() ? nullptr : node->children.data();
  array->dictionary = nullptr;
  array->release = &release_array;
  array->private_data = node.release();
  return array;
}

void move_root(SchemaPtr root, ArrowSchema* out) noexcept {
  *out = *root;
  root->release = nullptr;  // the caller's struct holds the node now; the shell alone is deleted
}

void move_root(ArrayPtr root, ArrowArray* out) noexcept {
  *out = *root;
  root->release = nullptr;
}

std::shared_ptr<void> owner_of(const ArrowArray* array, const void* owner_kind) {
  if (!array || array->release != &release_array) return nullptr;
  const auto* node = static_cast<const ArrayNode*>(array->private_data);
  return node->owner_kind == owner_kind && owner_kind ? node->owner : nullptr;
}

SchemaPtr fixed_shape_tensor_schema(const std::string& name, const char* value_format,
                                    int64_t list_size, const std::string& tensor_metadata) {
  const std::string metadata =
      encode_metadata({{"ARROW:extension:name", "arrow.fixed_shape_tensor"},
                       {"ARROW:extension:metadata", tensor_metadata}});
  std::vector<SchemaPtr> item;
  item.push_back(new_schema(value_format, "item"));
  return new_schema("+w:" + std::to_string(list_size), name, metadata, std::move(item));
}

std::string image_tensor_metadata(int height, int width, int layout, int positions, int channels) {
  const std::string h = std::to_string(height);
  const std::string w = std::to_string(width);
  const std::string c = std::to_string(channels);
  const std::string t = positions > 1 ? std::to_string(positions) + "," : "";
  const std::string tn = positions > 1 ? "\"T\"," : "";
  if (layout == RS_LAYOUT_HWC) {
    return "{\"shape\":[" + t + h + "," + w + "," + c + "],\"dim_names\":[" + tn +
           "\"H\",\"W\",\"C\"]}";
  }
  return "{\"shape\":[" + t + c + "," + h + "," + w + "],\"dim_names\":[" + tn +
         "\"C\",\"H\",\"W\"]}";
}

}  // namespace rs::arrow_export
