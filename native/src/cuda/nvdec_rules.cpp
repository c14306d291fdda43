#include "cuda/nvdec_rules.hpp"

#include <cstring>
#include <string>

#include "core/errors.hpp"

namespace rs {
namespace {

bool offers(unsigned int mask, cudaVideoSurfaceFormat format) {
  return (mask & (1u << static_cast<unsigned int>(format))) != 0;
}

}  // namespace

std::optional<cudaVideoSurfaceFormat> pick_surface_format(int bit_depth,
                                                          unsigned int output_format_mask) {
  const cudaVideoSurfaceFormat preferred =
      bit_depth > 8 ? cudaVideoSurfaceFormat_P016 : cudaVideoSurfaceFormat_NV12;
  const cudaVideoSurfaceFormat other =
      bit_depth > 8 ? cudaVideoSurfaceFormat_NV12 : cudaVideoSurfaceFormat_P016;
  if (offers(output_format_mask, preferred)) return preferred;
  if (offers(output_format_mask, other)) return other;
  return std::nullopt;
}

CodedSize max_coded_size(const CUVIDEOFORMAT* format) {
  CodedSize size{format->coded_width, format->coded_height};
  if (format->codec == cudaVideoCodec_AV1 && format->seqhdr_data_length > 0) {
    const auto* extended = reinterpret_cast<const CUVIDEOFORMATEX*>(format);
    if (extended->av1.max_width > size.width) size.width = extended->av1.max_width;
    if (extended->av1.max_height > size.height) size.height = extended->av1.max_height;
  }
  return size;
}

CUVIDPROCPARAMS proc_params_for(const DisplayedPicture& picture, CUstream stream) {
  CUVIDPROCPARAMS params;
  std::memset(&params, 0, sizeof params);
  params.progressive_frame = picture.progressive_frame;
  params.second_field = picture.repeat_first_field + 1;
  params.top_field_first = picture.top_field_first;
  params.unpaired_field = picture.repeat_first_field < 0 ? 1 : 0;
  params.output_stream = stream;
  return params;
}

void check_decode_status(cuvidDecodeStatus status, int64_t pts) {
  if (status == cuvidDecodeStatus_Error) {
    throw CorruptData("NVDEC could not decode the picture at pts " + std::to_string(pts) +
                      " (decode error)");
  }
  if (status == cuvidDecodeStatus_Error_Concealed) {
    throw CorruptData("NVDEC decoded the picture at pts " + std::to_string(pts) +
                      " only by concealing errors in it; robostream returns no damaged frames");
  }
}

}  // namespace rs
