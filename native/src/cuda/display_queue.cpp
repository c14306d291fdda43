#include "cuda/display_queue.hpp"

#include <string>

#include "core/errors.hpp"
#include "robostream/robostream.h"

namespace rs {

void DisplayQueue::push(const CUVIDPARSERDISPINFO& info) {
  queued_.push_back(DisplayedPicture{info.picture_index, info.timestamp, info.progressive_frame,
                                     info.top_field_first, info.repeat_first_field, false});
}

bool DisplayQueue::take_next() {
  has_current_ = !queued_.empty();
  if (!has_current_) return false;
  current_ = queued_.front();
  queued_.pop_front();
  return true;
}

const DisplayedPicture& DisplayQueue::current() const {
  if (!has_current_) throw InvalidArgument("no current NVDEC picture");
  return current_;
}

const DisplayedPicture& DisplayQueue::convertible_current() const {
  current();
  if (current_.overwritten) {
    throw Error(RS_ERR_INTERNAL,
                "NVDEC reused the surface of the picture at pts " + std::to_string(current_.pts) +
                    " before it was converted (take pictures out after each send)");
  }
  return current_;
}

void DisplayQueue::surface_reused(int picture_index) {
  for (auto& p : queued_) {
    if (p.picture_index == picture_index) p.overwritten = true;
  }
  if (has_current_ && current_.picture_index == picture_index) current_.overwritten = true;
}

void DisplayQueue::all_surfaces_replaced() {
  for (auto& p : queued_) p.overwritten = true;
  current_.overwritten = true;
}

void DisplayQueue::clear() {
  queued_.clear();
  has_current_ = false;
}

}  // namespace rs
