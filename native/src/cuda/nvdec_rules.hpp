// Decisions of the NVDEC path that depend only on what the driver reported, as plain functions
// so that they are tested without a GPU: the output surface format, the maximum coded size a
// decoder is created for, the post-processing parameters of a mapped picture and what a
// picture's decode status means. Each follows the Video Codec SDK samples (NvDecoder.cpp).
// Thread-safe (no state).
#pragma once

#include <cstdint>
#include <optional>

#include "cuda/display_queue.hpp"
#include "cuda/ffnvcodec.hpp"

namespace rs {

// The output surface for 4:2:0 at `bit_depth`, from the caps' nOutputFormatMask (bit n set:
// cudaVideoSurfaceFormat n is offered): P016 above 8 bits, NV12 otherwise, when offered; else
// the other of the two (a 10-bit stream as NV12 keeps its 8 high bits; an 8-bit one as P016
// takes twice the memory); nullopt when neither is offered (the colour kernel reads only these).
std::optional<cudaVideoSurfaceFormat> pick_surface_format(int bit_depth,
                                                          unsigned int output_format_mask);

struct CodedSize {
  unsigned int width;
  unsigned int height;
};

// The size a decoder for this sequence is created for (ulMaxWidth / ulMaxHeight), so that
// cuvidReconfigureDecoder can follow size changes up to it: AV1 sequence headers carry the
// stream's maximum (CUVIDEOFORMATEX::av1, present when seqhdr_data_length > 0: `format` must
// be the pointer the parser passed to the sequence callback); never less than the coded size.
CodedSize max_coded_size(const CUVIDEOFORMAT* format);

// cuvidMapVideoFrame's post-processing parameters for a displayed picture, on `stream`.
CUVIDPROCPARAMS proc_params_for(const DisplayedPicture& picture, CUstream stream);

// Throws CorruptData naming `pts` when cuvidGetDecodeStatus reported an error, concealed or not:
// robostream never hands out a frame NVDEC could not decode cleanly (the CPU path's FFmpeg and
// dav1d fail such packets too).
void check_decode_status(cuvidDecodeStatus status, int64_t pts);

}  // namespace rs
