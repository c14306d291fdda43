// Sizes beyond the core's bounds (core/sizes.hpp) are refused with RS_ERR_INVALID_ARGUMENT before
// anything is multiplied or allocated: no signed overflow (the UBSan run would report it), no
// wrapped size that allocates too little.
#include <climits>
#include <cstdint>

#include "robostream/robostream.h"
#include "test_support.hpp"

RS_TEST(huge_device_batches_are_refused_before_allocating) {
  const int64_t objects_before = rs_live_objects();
  const int64_t bytes_before = rs_live_bytes();
  int64_t pool = 0;
  RS_CHECK_EQ(rs_pool_create(RS_DEVICE_CPU, 0, &pool), RS_OK);
  int64_t batch = 0;
  RS_CHECK_EQ(rs_device_batch_create(pool, int64_t{1} << 40, &batch), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_device_batch_create(pool, int64_t{1} << 24, &batch), RS_OK);
  int32_t col = -1;
  // 3 * INT_MAX * INT_MAX overflows int64: refused from the sides alone.
  RS_CHECK_EQ(rs_device_batch_add_frame_column(batch, "max", INT_MAX, INT_MAX, RS_LAYOUT_HWC,
                                               RS_DTYPE_UINT8, &col),
              RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_device_batch_add_frame_column(batch, "square", 65536, 65536, RS_LAYOUT_HWC,
                                               RS_DTYPE_UINT8, &col),
              RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_device_batch_add_frame_column(batch, "wide", 1, 65536, RS_LAYOUT_HWC,
                                               RS_DTYPE_UINT8, &col),
              RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_device_batch_add_window_column(batch, "long", 5000, 2, 2, RS_LAYOUT_HWC,
                                                RS_DTYPE_UINT8, &col),
              RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_device_batch_add_window_column(batch, "negative", -1, 2, 2, RS_LAYOUT_HWC,
                                                RS_DTYPE_UINT8, &col),
              RS_ERR_INVALID_ARGUMENT);
  // 2^24 rows of 3.2 GB float32 frames: every factor bounded, the product not.
  RS_CHECK_EQ(rs_device_batch_add_frame_column(batch, "all", 16384, 16384, RS_LAYOUT_CHW,
                                               RS_DTYPE_FLOAT32, &col),
              RS_ERR_INVALID_ARGUMENT);
  // A window row of more values than an Arrow list holds (int32).
  RS_CHECK_EQ(rs_device_batch_add_window_column(batch, "list", 4, 16384, 16384, RS_LAYOUT_HWC,
                                                RS_DTYPE_UINT8, &col),
              RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_device_batch_add_frame_column(batch, "dtype", 2, 2, RS_LAYOUT_HWC, 7, &col),
              RS_ERR_INVALID_ARGUMENT);
  int64_t stats[5];
  RS_CHECK_EQ(rs_pool_stats(pool, stats), RS_OK);
  RS_CHECK_EQ(stats[0], int64_t(0));  // nothing was allocated for the refused columns
  int64_t address = 0;
  RS_CHECK_EQ(rs_device_batch_frame_slot(batch, 0, 0, &address), RS_ERR_INVALID_ARGUMENT);
  rs_device_batch_free(batch);
  RS_CHECK_EQ(rs_pool_acquire(pool, INT64_MAX, &address), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_pool_acquire(pool, (int64_t{1} << 40) + 1, &address), RS_ERR_INVALID_ARGUMENT);
  rs_pool_free(pool);
  RS_CHECK_EQ(rs_live_objects(), objects_before);
  RS_CHECK_EQ(rs_live_bytes(), bytes_before);
}

RS_TEST(colour_conversion_refuses_pictures_beyond_the_frame_bound) {
  uint8_t plane[4] = {0, 0, 0, 0};
  uint8_t rgb[12];
  RS_CHECK_EQ(rs_convert_yuv8(plane, 1 << 30, plane, 1 << 30, plane, 1 << 30, 1 << 30, 2,
                              RS_CHROMA_420, RS_MATRIX_BT601, 0, rgb, RS_LAYOUT_HWC),
              RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_convert_yuv8(plane, 2, plane, 1, plane, 1, 2, 2, RS_CHROMA_420, RS_MATRIX_BT601, 0,
                              rgb, RS_LAYOUT_HWC),
              RS_OK);
}
