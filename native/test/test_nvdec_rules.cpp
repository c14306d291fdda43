// The parts of the NVDEC path that need no GPU (the rest runs only in the GPU tests): which
// pictures may be converted, the colour kernel's argument checks, the output surface format
// chosen from the decoder caps, the maximum coded size, the post-processing parameters of a
// mapped picture and what a decode status means.
#include <cstring>

#include "core/errors.hpp"
#include "cuda/colour_kernel.hpp"
#include "cuda/display_queue.hpp"
#include "cuda/nvdec_rules.hpp"
#include "robostream/robostream.h"
#include "test_support.hpp"

namespace {

CUVIDPARSERDISPINFO displayed(int picture_index, int64_t pts) {
  CUVIDPARSERDISPINFO info;
  std::memset(&info, 0, sizeof info);
  info.picture_index = picture_index;
  info.progressive_frame = 1;
  info.timestamp = pts;
  return info;
}

// Whether `call` throws an rs::Error with `code`.
template <typename Call>
bool fails_with(int code, Call&& call) {
  try {
    call();
  } catch (const rs::Error& e) {
    return e.code() == code;
  }
  return false;
}

rs::ColourJob job_of(int width, int height, int dtype, int64_t dst_bytes) {
  static char slot;
  rs::ColourJob job{};
  job.pitch = static_cast<unsigned int>(width);
  job.surface_height = height;
  job.width = width;
  job.height = height;
  job.out_width = width;
  job.out_height = height;
  job.matrix = RS_MATRIX_BT601;
  job.layout = RS_LAYOUT_HWC;
  job.dtype = dtype;
  job.dst = &slot;
  job.dst_bytes = dst_bytes;
  return job;
}

}  // namespace

// The picture the caller has already taken out is overwritten too when NVDEC decodes into its
// surface, not only the queued ones.
RS_TEST(a_reused_surface_overwrites_the_current_picture_and_queued_ones) {
  rs::DisplayQueue pictures;
  pictures.push(displayed(1, 100));
  pictures.push(displayed(2, 200));
  pictures.push(displayed(1, 300));
  RS_CHECK(pictures.take_next());
  RS_CHECK_EQ(pictures.convertible_current().pts, int64_t(100));
  pictures.surface_reused(1);
  RS_CHECK_EQ(pictures.current().pts, int64_t(100));  // still listed, never converted
  RS_CHECK(fails_with(RS_ERR_INTERNAL, [&] { pictures.convertible_current(); }));
  RS_CHECK(pictures.take_next());
  RS_CHECK_EQ(pictures.convertible_current().pts, int64_t(200));
  RS_CHECK(pictures.take_next());
  RS_CHECK(fails_with(RS_ERR_INTERNAL, [&] { pictures.convertible_current(); }));
  RS_CHECK(!pictures.take_next());
  RS_CHECK(fails_with(RS_ERR_INVALID_ARGUMENT, [&] { pictures.current(); }));
}

RS_TEST(a_swapped_decoder_overwrites_every_picture_and_a_flush_drops_them) {
  rs::DisplayQueue pictures;
  pictures.push(displayed(0, 10));
  pictures.push(displayed(1, 20));
  RS_CHECK(pictures.take_next());
  pictures.all_surfaces_replaced();
  RS_CHECK(fails_with(RS_ERR_INTERNAL, [&] { pictures.convertible_current(); }));
  RS_CHECK(pictures.take_next());
  RS_CHECK(fails_with(RS_ERR_INTERNAL, [&] { pictures.convertible_current(); }));
  pictures.push(displayed(2, 30));
  pictures.clear();
  RS_CHECK(!pictures.take_next());
  RS_CHECK(fails_with(RS_ERR_INVALID_ARGUMENT, [&] { pictures.convertible_current(); }));
}

RS_TEST(colour_jobs_are_checked_before_the_kernel_writes) {
  const int64_t rgb = 3 * 64 * 48;
  rs::check_colour_job(job_of(64, 48, RS_DTYPE_UINT8, rgb));
  rs::check_colour_job(job_of(64, 48, RS_DTYPE_FLOAT32, 4 * rgb));
  // A slot smaller than the picture: a stream larger than declared must not write past it.
  RS_CHECK(fails_with(RS_ERR_INVALID_ARGUMENT,
                      [&] { rs::check_colour_job(job_of(64, 48, RS_DTYPE_UINT8, rgb - 1)); }));
  RS_CHECK(fails_with(RS_ERR_INVALID_ARGUMENT,
                      [&] { rs::check_colour_job(job_of(64, 48, RS_DTYPE_FLOAT32, rgb)); }));
  RS_CHECK(fails_with(RS_ERR_INVALID_ARGUMENT,
                      [&] { rs::check_colour_job(job_of(64, 48, 2, 8 * rgb)); }));
  rs::ColourJob layout = job_of(64, 48, RS_DTYPE_UINT8, rgb);
  layout.layout = 5;
  RS_CHECK(fails_with(RS_ERR_INVALID_ARGUMENT, [&] { rs::check_colour_job(layout); }));
  rs::ColourJob null_slot = job_of(64, 48, RS_DTYPE_UINT8, rgb);
  null_slot.dst = nullptr;
  RS_CHECK(fails_with(RS_ERR_INVALID_ARGUMENT, [&] { rs::check_colour_job(null_slot); }));
  rs::ColourJob narrow = job_of(64, 48, RS_DTYPE_UINT8, rgb);
  narrow.sixteen_bit = true;  // P016 rows are 2 bytes a sample: a pitch of 64 is too small
  RS_CHECK(fails_with(RS_ERR_INVALID_ARGUMENT, [&] { rs::check_colour_job(narrow); }));
  RS_CHECK(fails_with(RS_ERR_INVALID_ARGUMENT,
                      [&] { rs::check_colour_job(job_of(0, 48, RS_DTYPE_UINT8, rgb)); }));
  RS_CHECK(fails_with(RS_ERR_INVALID_ARGUMENT, [&] {
    rs::check_colour_job(job_of(1 << 20, 1 << 20, RS_DTYPE_UINT8, INT64_MAX));
  }));
}

// A resized job needs a slot of the output's size, not the picture's: a 64x48 picture into
// 32x24 fits a 32x24 slot; into 128x96 a slot sized for the picture is refused.
RS_TEST(resized_colour_jobs_check_the_slot_against_the_output_size) {
  const auto resized = [](int out_width, int out_height, int dtype, int64_t dst_bytes) {
    rs::ColourJob job = job_of(64, 48, dtype, dst_bytes);
    job.out_width = out_width;
    job.out_height = out_height;
    return job;
  };
  const auto refused = [](const rs::ColourJob& job) {
    return fails_with(RS_ERR_INVALID_ARGUMENT, [&] { rs::check_colour_job(job); });
  };
  const int64_t small = 3 * 32 * 24;
  rs::check_colour_job(resized(32, 24, RS_DTYPE_UINT8, small));
  rs::check_colour_job(resized(32, 24, RS_DTYPE_FLOAT32, 4 * small));
  RS_CHECK(refused(resized(32, 24, RS_DTYPE_UINT8, small - 1)));
  RS_CHECK(refused(resized(32, 24, RS_DTYPE_FLOAT32, small)));
  const int64_t large = 3 * 128 * 96;
  rs::check_colour_job(resized(128, 96, RS_DTYPE_UINT8, large));
  RS_CHECK(refused(resized(128, 96, RS_DTYPE_UINT8, 3 * 64 * 48)));
  RS_CHECK(refused(resized(0, 24, RS_DTYPE_UINT8, small)));
  RS_CHECK(refused(resized(1 << 20, 24, RS_DTYPE_UINT8, INT64_MAX)));
}

RS_TEST(the_output_surface_follows_the_caps_output_format_mask) {
  const unsigned int nv12 = 1u << cudaVideoSurfaceFormat_NV12;
  const unsigned int p016 = 1u << cudaVideoSurfaceFormat_P016;
  const unsigned int yuv444 = 1u << cudaVideoSurfaceFormat_YUV444;
  RS_CHECK(rs::pick_surface_format(8, nv12 | p016) == cudaVideoSurfaceFormat_NV12);
  RS_CHECK(rs::pick_surface_format(10, nv12 | p016) == cudaVideoSurfaceFormat_P016);
  RS_CHECK(rs::pick_surface_format(10, nv12) == cudaVideoSurfaceFormat_NV12);
  RS_CHECK(rs::pick_surface_format(8, p016) == cudaVideoSurfaceFormat_P016);
  RS_CHECK(!rs::pick_surface_format(10, yuv444));
  RS_CHECK(!rs::pick_surface_format(8, 0));
}

RS_TEST(av1_decoders_are_created_for_the_sequence_maximum) {
  CUVIDEOFORMATEX sequence;
  std::memset(&sequence, 0, sizeof sequence);
  sequence.format.codec = cudaVideoCodec_AV1;
  sequence.format.coded_width = 640;
  sequence.format.coded_height = 480;
  sequence.av1.max_width = 1920;
  sequence.av1.max_height = 1080;
  rs::CodedSize size = rs::max_coded_size(&sequence.format);
  RS_CHECK_EQ(size.width, 640u);  // no sequence header data attached: the coded size
  sequence.format.seqhdr_data_length = 16;
  size = rs::max_coded_size(&sequence.format);
  RS_CHECK_EQ(size.width, 1920u);
  RS_CHECK_EQ(size.height, 1080u);
  sequence.av1.max_width = 320;  // never below the coded size
  RS_CHECK_EQ(rs::max_coded_size(&sequence.format).width, 640u);
  sequence.format.codec = cudaVideoCodec_HEVC;  // other codecs carry raw headers there
  sequence.av1.max_width = 4096;
  RS_CHECK_EQ(rs::max_coded_size(&sequence.format).width, 640u);
}

RS_TEST(mapped_pictures_carry_their_field_order_as_the_sdk_samples_set_it) {
  int stream_marker = 0;
  auto* stream = reinterpret_cast<CUstream>(&stream_marker);
  rs::DisplayedPicture progressive{3, 0, 1, 0, 0, false};
  CUVIDPROCPARAMS p = rs::proc_params_for(progressive, stream);
  RS_CHECK_EQ(p.progressive_frame, 1);
  RS_CHECK_EQ(p.second_field, 1);
  RS_CHECK_EQ(p.top_field_first, 0);
  RS_CHECK_EQ(p.unpaired_field, 0);
  RS_CHECK(p.output_stream == stream);
  rs::DisplayedPicture unpaired{3, 0, 0, 1, -1, false};
  p = rs::proc_params_for(unpaired, stream);
  RS_CHECK_EQ(p.progressive_frame, 0);
  RS_CHECK_EQ(p.second_field, 0);
  RS_CHECK_EQ(p.top_field_first, 1);
  RS_CHECK_EQ(p.unpaired_field, 1);
}

RS_TEST(errored_and_concealed_pictures_are_corrupt_data) {
  rs::check_decode_status(cuvidDecodeStatus_Success, 0);
  rs::check_decode_status(cuvidDecodeStatus_Invalid, 0);  // the driver cannot tell
  RS_CHECK(
      fails_with(RS_ERR_CORRUPT_DATA, [] { rs::check_decode_status(cuvidDecodeStatus_Error, 1); }));
  RS_CHECK(fails_with(RS_ERR_CORRUPT_DATA,
                      [] { rs::check_decode_status(cuvidDecodeStatus_Error_Concealed, 2); }));
}
