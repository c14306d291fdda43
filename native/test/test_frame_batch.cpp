#include <cstring>
#include <string>

#include "arrow/abi.h"
#include "robostream/robostream.h"
#include "test_support.hpp"

using rstest::metadata_value;

RS_TEST(batch_export_layout_and_release) {
  const int64_t objects_before = rs_live_objects();
  const int64_t bytes_before = rs_live_bytes();
  int64_t batch = 0;
  RS_CHECK_EQ(rs_batch_create(3, &batch), RS_OK);
  int32_t col = -1;
  RS_CHECK_EQ(rs_batch_add_frame_column(batch, "cam", 4, 5, RS_LAYOUT_CHW, &col), RS_OK);
  RS_CHECK_EQ(col, 0);
  for (int64_t row = 0; row < 3; ++row) {
    int64_t address = 0;
    RS_CHECK_EQ(rs_batch_frame_slot(batch, 0, row, &address), RS_OK);
    std::memset(reinterpret_cast<void*>(address), static_cast<int>(row + 1), 60);
    RS_CHECK_EQ(rs_batch_set_frame_info(batch, 0, row, row * 0.5, row * 10), RS_OK);
  }
  RS_CHECK(rs_live_bytes() - bytes_before >= 3 * 60);

  ArrowArray array{};
  ArrowSchema schema{};
  RS_CHECK_EQ(rs_batch_export(batch, &array, &schema), RS_OK);
  RS_CHECK_EQ(std::string(schema.format), std::string("+s"));
  RS_CHECK_EQ(schema.n_children, 3);
  RS_CHECK_EQ(std::string(schema.children[0]->format), std::string("+w:60"));
  RS_CHECK_EQ(std::string(schema.children[0]->children[0]->format), std::string("C"));
  RS_CHECK_EQ(metadata_value(schema.children[0]->metadata, "ARROW:extension:name"),
              std::string("arrow.fixed_shape_tensor"));
  RS_CHECK_EQ(metadata_value(schema.children[0]->metadata, "ARROW:extension:metadata"),
              std::string("{\"shape\":[3,4,5],\"dim_names\":[\"C\",\"H\",\"W\"]}"));
  RS_CHECK_EQ(std::string(schema.children[1]->name), std::string("cam.pts"));
  RS_CHECK_EQ(std::string(schema.children[2]->format), std::string("l"));
  RS_CHECK_EQ(array.length, 3);
  RS_CHECK_EQ(array.n_children, 3);
  const ArrowArray* values = array.children[0]->children[0];
  RS_CHECK_EQ(values->length, 180);
  const auto* pixels = static_cast<const uint8_t*>(values->buffers[1]);
  RS_CHECK_EQ(int(pixels[60 * 2]), 3);
  const auto* pts = static_cast<const double*>(array.children[1]->buffers[1]);
  RS_CHECK(pts[2] == 1.0);
  const auto* index = static_cast<const int64_t*>(array.children[2]->buffers[1]);
  RS_CHECK_EQ(index[1], 10);

  // A consumer may move a child out and release it on its own, before or after the parent.
  ArrowArray moved = *array.children[1];
  array.children[1]->release = nullptr;
  schema.release(&schema);
  RS_CHECK(schema.release == nullptr);
  array.release(&array);
  RS_CHECK(array.release == nullptr);
  RS_CHECK(rs_live_objects() > objects_before);  // the moved child still holds the batch
  moved.release(&moved);
  RS_CHECK_EQ(rs_live_objects(), objects_before);
  RS_CHECK_EQ(rs_live_bytes(), bytes_before);
}

RS_TEST(batch_errors_keep_ownership) {
  const int64_t objects_before = rs_live_objects();
  int64_t batch = 0;
  RS_CHECK_EQ(rs_batch_create(2, &batch), RS_OK);
  int32_t col = -1;
  RS_CHECK_EQ(rs_batch_add_frame_column(batch, "a", 2, 2, RS_LAYOUT_HWC, &col), RS_OK);
  RS_CHECK_EQ(rs_batch_add_frame_column(batch, "a", 2, 2, RS_LAYOUT_HWC, &col),
              RS_ERR_INVALID_ARGUMENT);
  int64_t address = 0;
  RS_CHECK_EQ(rs_batch_frame_slot(batch, 0, 2, &address), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_batch_frame_slot(batch, 1, 0, &address), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_batch_export(batch, nullptr, nullptr), RS_ERR_INVALID_ARGUMENT);
  rs_batch_free(batch);  // still owned by us after the failed export
  RS_CHECK_EQ(rs_live_objects(), objects_before);
}

// robostream.h's ownership rule: a failed export leaves the batch with the caller. Every
// allocation the export makes is failed once in turn; each time the batch must still be usable
// and freeable exactly once (a double free is an ASan report, or a crash without it).
RS_TEST(batch_export_failure_at_any_allocation_leaves_the_batch_with_the_caller) {
  const int64_t objects_before = rs_live_objects();
  const int64_t bytes_before = rs_live_bytes();
  int failures = 0;
  for (int64_t pass = 0;; ++pass) {
    int64_t batch = 0;
    RS_CHECK_EQ(rs_batch_create(2, &batch), RS_OK);
    int32_t col = -1;
    RS_CHECK_EQ(rs_batch_add_frame_column(batch, "cam", 2, 2, RS_LAYOUT_HWC, &col), RS_OK);
    int64_t slot = 0;
    RS_CHECK_EQ(rs_batch_frame_slot(batch, col, 1, &slot), RS_OK);
    ArrowArray array{};
    ArrowSchema schema{};
    rs_debug_fail_allocations(pass, 1);
    const int rc = rs_batch_export(batch, &array, &schema);
    rs_debug_fail_allocations(0, 0);
    if (rc == RS_OK) {
      array.release(&array);
      schema.release(&schema);
      break;
    }
    ++failures;
    RS_CHECK_EQ(rc, RS_ERR_OUT_OF_MEMORY);
    RS_CHECK(array.release == nullptr);  // nothing was exported
    RS_CHECK(schema.release == nullptr);
    int64_t again = 0;
    RS_CHECK_EQ(rs_batch_frame_slot(batch, col, 1, &again), RS_OK);  // still the caller's
    RS_CHECK_EQ(again, slot);
    RS_CHECK_EQ(rs_batch_set_frame_info(batch, col, 1, 0.5, 7), RS_OK);
    rs_batch_free(batch);
    RS_CHECK_EQ(rs_live_objects(), objects_before);
    RS_CHECK_EQ(rs_live_bytes(), bytes_before);
  }
  RS_CHECK(failures >= 8);  // every node of the struct array failed once
  RS_CHECK_EQ(rs_live_objects(), objects_before);
  RS_CHECK_EQ(rs_live_bytes(), bytes_before);
}
