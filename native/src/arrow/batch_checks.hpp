// Argument checks shared by the host batch (FrameBatch) and the device batch (DeviceFrameBatch):
// both expose columns and rows to callers through the C API, which must never index out of range.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "robostream/robostream.h"

namespace rs::batch_checks {

// A new frame column needs a unique name, a bounded size (sizes::check_frame_size) and a known
// layout.
template <typename Column>
void check_new_column(const std::vector<Column>& existing, const std::string& name, int height,
                      int width, int layout) {
  if (name.empty()) throw InvalidArgument("frame column needs a name");
  sizes::check_frame_size("frame column " + name, height, width);
  if (layout != RS_LAYOUT_HWC && layout != RS_LAYOUT_CHW) {
    throw InvalidArgument("unknown layout " + std::to_string(layout));
  }
  for (const auto& c : existing) {
    if (c.name == name) throw InvalidArgument("duplicate frame column " + name);
  }
}

template <typename Column>
const Column& column_at(const std::vector<Column>& columns, int index) {
  if (index < 0 || index >= static_cast<int>(columns.size())) {
    throw InvalidArgument("no frame column " + std::to_string(index));
  }
  return columns[static_cast<size_t>(index)];
}

inline void check_row(int64_t row, int64_t rows) {
  if (row < 0 || row >= rows) {
    throw InvalidArgument("row " + std::to_string(row) + " outside batch of " +
                          std::to_string(rows));
  }
}

}  // namespace rs::batch_checks
