// The pictures an NVDEC session has displayed and its caller has not converted yet: the queue
// filled by the parser's display callback and the "current" picture the caller took out of it.
// NVDEC decodes into a surface as soon as the parser recycles its index, so a picture whose
// surface is reused (or whose decoder is swapped or reconfigured) before it is converted is
// marked overwritten and must never be converted: that would return another picture's pixels.
// The mark covers the current picture too, which has already left the queue.
// Kept free of driver calls so that these rules are tested without a GPU. Not thread-safe: one
// per NvdecDecoder.
#pragma once

#include <cstdint>
#include <deque>

#include "cuda/ffnvcodec.hpp"

namespace rs {

struct DisplayedPicture {
  int picture_index;
  int64_t pts;
  int progressive_frame;
  int top_field_first;
  int repeat_first_field;  // CUVIDPARSERDISPINFO's: -1 for an unpaired field
  bool overwritten;
};

class DisplayQueue {
 public:
  void push(const CUVIDPARSERDISPINFO& info);
  // Makes the oldest queued picture current; false (and no current picture) when none is queued.
  bool take_next();
  // The current picture; throws InvalidArgument when there is none.
  const DisplayedPicture& current() const;
  // The current picture, checked for conversion: current(), and an internal error naming its pts
  // when its surface was reused.
  const DisplayedPicture& convertible_current() const;
  // NVDEC decodes into surface `picture_index` now.
  void surface_reused(int picture_index);
  // Every surface is going away (the decoder is swapped or reconfigured).
  void all_surfaces_replaced();
  // Drops every picture (after a seek).
  void clear();

 private:
  std::deque<DisplayedPicture> queued_;
  DisplayedPicture current_{};
  bool has_current_ = false;
};

}  // namespace rs
