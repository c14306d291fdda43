#include <string>
#include <vector>

#include "robostream/robostream.h"
#include "test_support.hpp"

RS_TEST(av1_availability_is_reported) {
  if (rs_av1_available()) {
    RS_CHECK(std::string(rs_av1_library_version()).size() > 0);
    RS_CHECK(std::string(rs_av1_unavailable_reason()).empty());
  } else {
    RS_CHECK(std::string(rs_av1_unavailable_reason()).find("dav1d") != std::string::npos);
  }
}

RS_TEST(av1_garbage_packet_is_a_typed_error) {
  if (!rs_av1_available()) return;
  const int64_t objects_before = rs_live_objects();
  int64_t decoder = 0;
  RS_CHECK_EQ(rs_av1_open(1, 1, &decoder), RS_OK);
  RS_CHECK_EQ(rs_av1_open(1, -1, &decoder), RS_ERR_INVALID_ARGUMENT);
  // An OBU header claiming a sequence header with a truncated, invalid payload.
  std::vector<uint8_t> junk = {0x0a, 0x0b, 0x00, 0x00, 0x00, 0x24, 0xff, 0xff, 0xff,
                               0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  int rc = rs_av1_send(decoder, junk.data(), static_cast<int>(junk.size()), 0);
  RS_CHECK(rc == RS_ERR_CORRUPT_DATA || rc == RS_OK);
  int64_t info[8] = {};
  RS_CHECK_EQ(rs_av1_next_picture(decoder, info), RS_OK);
  RS_CHECK_EQ(info[0], 0);  // nothing decodable came out of it
  RS_CHECK_EQ(rs_av1_convert_current(decoder, RS_MATRIX_BT601, 0, nullptr, RS_LAYOUT_HWC),
              RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_av1_send(decoder, nullptr, 0, 0), RS_ERR_INVALID_ARGUMENT);
  rs_av1_close(decoder);
  RS_CHECK_EQ(rs_live_objects(), objects_before);
}

RS_TEST(cuda_probe_names_a_cause_when_unusable) {
  int count = rs_cuda_device_count();
  if (count < 0) {
    RS_CHECK(std::string(rs_last_error()).find("CUDA unavailable") != std::string::npos);
  } else {
    RS_CHECK(rs_cuda_compiled() == 1);
  }
}

// CMake passes whether nvcc compiled the colour kernel: a core built without nvcc carries none
// (and NVDEC reports that as its cause), one built with nvcc must not lose it silently.
RS_TEST(colour_kernel_is_embedded_exactly_when_nvcc_built_it) {
  RS_CHECK_EQ(rs_cuda_compiled(), ROBOSTREAM_EXPECT_PTX);
}
