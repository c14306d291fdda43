// A batch of decoded frames in native memory, one column per camera, exportable through the Arrow
// C Data interface without copying. Not thread-safe while being filled; each slot may be written
// by a different thread as long as no two threads write the same slot.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arrow/abi.h"
#include "core/live_objects.hpp"

namespace rs {

// 64-byte aligned buffer counted in live_bytes().
class AlignedBuffer {
 public:
  explicit AlignedBuffer(int64_t bytes);
  ~AlignedBuffer();
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }

 private:
  uint8_t* data_;
  int64_t size_;
};

struct FrameColumn {
  std::string name;
  int height;
  int width;
  int layout;  // RS_LAYOUT_*
  int64_t frame_bytes;
  std::unique_ptr<AlignedBuffer> frames;
  std::unique_ptr<AlignedBuffer> pts;          // double per row
  std::unique_ptr<AlignedBuffer> frame_index;  // int64 per row
};

class FrameBatch {
 public:
  explicit FrameBatch(int64_t rows);
  int64_t rows() const { return rows_; }
  int add_frame_column(const std::string& name, int height, int width, int layout);
  uint8_t* slot(int column, int64_t row) const;
  void set_frame_info(int column, int64_t row, double pts_seconds, int64_t frame_index);
  const std::vector<FrameColumn>& columns() const { return columns_; }

  // Moves the batch into out_array / out_schema: takes ownership of `batch` only when it
  // returns; when it throws (an allocation failed) nothing was exported and the caller still owns
  // `batch`. The exported array nodes share the ownership; the last release frees the batch.
  static void export_to(FrameBatch* batch, ArrowArray* out_array, ArrowSchema* out_schema);

 private:
  const FrameColumn& column(int index) const;
  void check_row(int64_t row) const;

  LiveObject live_;
  int64_t rows_;
  std::vector<FrameColumn> columns_;
};

// The extension metadata of arrow.fixed_shape_tensor for one column (JSON, as the spec defines).
std::string fixed_shape_tensor_metadata(const FrameColumn& column);

}  // namespace rs
