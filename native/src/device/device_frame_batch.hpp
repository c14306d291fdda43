// The one batch of decoded frames: pooled memory of one device (host or CUDA), one column per
// camera, exported through the Arrow C Device Data interface as an ArrowDeviceArray whose
// sync_event marks the moment the frames are written (NULL on the host). Every frame batch of the
// core is one of these, whichever decoder filled it. Its buffers come from a BufferPool and go
// back to it when the batch is freed, or when the consumer releases the last exported array.
// Not thread-safe while being filled, except that different threads may write different slots.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arrow/abi.h"
#include "core/live_objects.hpp"
#include "device/buffer_pool.hpp"

namespace rs {

// A column holds `positions` frames per row (a time window, [T, ...]; 1 for a single frame).
// Its frame slots are numbered row * positions + t.
struct DeviceFrameColumn {
  std::string name;
  int positions;
  int height;
  int width;
  int layout;               // RS_LAYOUT_*
  int dtype;                // RS_DTYPE_*
  int64_t elements;         // values per frame: channels (3 RGB, 1 depth) * height * width
  int64_t frame_bytes;      // elements * value size
  int64_t slots;            // rows * positions
  int64_t frames_bytes;     // slots * frame_bytes
  void* frames;             // pooled, frames_bytes long, uninitialised
  std::vector<double> pts;  // per slot
  std::vector<int64_t> frame_index;
  void* pts_buffer = nullptr;  // pooled copies of pts / frame_index, made at export
  void* index_buffer = nullptr;
};

class DeviceFrameBatch {
 public:
  DeviceFrameBatch(std::shared_ptr<BufferPool> pool, int64_t rows);
  ~DeviceFrameBatch();
  DeviceFrameBatch(const DeviceFrameBatch&) = delete;
  DeviceFrameBatch& operator=(const DeviceFrameBatch&) = delete;

  int64_t rows() const { return rows_; }
  const BufferPool& pool() const { return *pool_; }
  const std::vector<DeviceFrameColumn>& columns() const { return columns_; }

  // Adds a frame column of `positions` frames per row; values are uint8 RGB or float32 RGB in
  // [0, 1]. Returns its index. Sizes are bounded (core/sizes.hpp) before anything is allocated;
  // on failure the batch is unchanged.
  int add_frame_column(const std::string& name, int positions, int height, int width, int layout,
                       int dtype);
  // Device address of a frame slot (frame_bytes long); slot = row * positions + t.
  void* slot(int column, int64_t slot) const;
  void set_frame_info(int column, int64_t slot, double pts_seconds, int64_t frame_index);

  // Uploads the per-row columns, records the completion event on `stream` (the stream that wrote
  // the frames; nullptr for the default stream) and moves the batch into the caller's structs.
  // Takes ownership of `batch` only when it returns; when it throws (an allocation or a device
  // call failed) nothing was exported, the caller still owns `batch` and may free it or export
  // it again. The consumer's release of the array returns every buffer and the event to the pool.
  static void export_to(DeviceFrameBatch* batch, void* stream, ArrowDeviceArray* out_array,
                        ArrowSchema* out_schema);

  // A second export of a live host batch from export_to, as a plain C Data struct array (for
  // consumers that import host frames into Arrow libraries while the device array stays where it
  // is). The view shares the batch: its buffers return to the pool once both arrays are released.
  // Throws InvalidArgument for arrays made elsewhere, released ones, and batches on a GPU.
  static void host_view(const ArrowDeviceArray& exported, ArrowArray* out_array,
                        ArrowSchema* out_schema);

  // A host copy of an array exported by export_to: waits for its sync_event, then copies every
  // buffer into a new batch on `host_pool`. Throws InvalidArgument for arrays made elsewhere.
  static std::unique_ptr<DeviceFrameBatch> copy_to_host(const ArrowDeviceArray& exported,
                                                        std::shared_ptr<BufferPool> host_pool);

 private:
  const DeviceFrameColumn& column(int index) const;
  void check_slot(const DeviceFrameColumn& c, int64_t slot) const;
  // The device copies of pts / frame_index and the recorded event that an export carries; safe to
  // repeat after a failure (what was acquired stays with the batch).
  void prepare_export(void* stream);

  LiveObject live_;
  std::shared_ptr<BufferPool> pool_;
  int64_t rows_;
  std::vector<DeviceFrameColumn> columns_;
  void* event_ = nullptr;
};

}  // namespace rs
