// Building blocks for exporting native buffers through the Arrow C Data interface: schema and array
// nodes whose release callbacks free exactly what they own. Each array node holds a keep-alive
// reference on the object that owns its buffers, so the buffers live until the consumer has
// released every node it imported (the spec lets children be moved out and released separately).
// Nodes under construction are held by SchemaPtr / ArrayPtr, which release them if an export
// fails halfway (an allocation failure), so a failed export leaks nothing.
// Not thread-safe while building; release callbacks may run on any thread.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arrow/abi.h"

namespace rs::arrow_export {

// Releases (if still held) and deletes a heap node made by new_schema / new_array.
struct SchemaDeleter {
  void operator()(ArrowSchema* schema) const noexcept;
};
struct ArrayDeleter {
  void operator()(ArrowArray* array) const noexcept;
};
using SchemaPtr = std::unique_ptr<ArrowSchema, SchemaDeleter>;
using ArrayPtr = std::unique_ptr<ArrowArray, ArrayDeleter>;

// Key/value pairs in the C Data interface's metadata encoding (native-endian int32 lengths).
std::string encode_metadata(const std::vector<std::pair<std::string, std::string>>& pairs);

// A heap schema node; release frees it and its children.
SchemaPtr new_schema(std::string format, std::string name, std::string metadata = {},
                     std::vector<SchemaPtr> children = {});

// A heap array node over `buffers` (not copied); `owner` is kept alive until the node's release.
// `owner_kind` is any address that identifies the owner's type for owner_of.
ArrayPtr new_array(std::shared_ptr<void> owner, int64_t length, std::vector<const void*> buffers,
                   std::vector<ArrayPtr> children = {}, const void* owner_kind = nullptr);

// Moves a heap root node's contents into a caller-owned struct and frees the heap shell.
void move_root(SchemaPtr root, ArrowSchema* out) noexcept;
void move_root(ArrayPtr root, ArrowArray* out) noexcept;

// The keep-alive owner of an array node made by new_array with this `owner_kind`, or nullptr when
// `array` was made elsewhere (another producer, another kind) or is released.
std::shared_ptr<void> owner_of(const ArrowArray* array, const void* owner_kind);

// Schema of one arrow.fixed_shape_tensor column: FixedSizeList<value_format> of `list_size` items
// with the extension name and metadata (shape, dim_names) the canonical extension type defines.
SchemaPtr fixed_shape_tensor_schema(const std::string& name, const char* value_format,
                                    int64_t list_size, const std::string& tensor_metadata);

// The fixed_shape_tensor metadata of an image of `channels` (3: RGB, 1: depth): shape [H,W,C]
// with dim_names H,W,C (HWC) or [C,H,W] with C,H,W (CHW); layout is RS_LAYOUT_*. With
// positions > 1 a window of images: [T,H,W,C] / [T,C,H,W] with a leading dim "T".
std::string image_tensor_metadata(int height, int width, int layout, int positions = 1,
                                  int channels = 3);

}  // namespace rs::arrow_export
