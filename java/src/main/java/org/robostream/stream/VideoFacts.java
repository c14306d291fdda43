package org.robostream.stream;

import org.robostream.video.FrameTable;
import org.robostream.video.VideoDecoder;
import org.robostream.video.VideoStreamInfo;

/**
 * What the first decoder of a video file told about it — its stream (size, frame count, first pts,
 * pixel format), its frame table, and whether its decoders run on the GPU — kept for the dataset's
 * life so that a fetch the frame cache serves whole needs no decoder (opening one reads the file's
 * header, about a tenth of a cached epoch's time). Immutable.
 */
record VideoFacts(VideoStreamInfo info, FrameTable table, boolean decodesOnGpu) {
  static VideoFacts of(VideoDecoder decoder) {
    return new VideoFacts(decoder.info(), decoder.frameTable(), decoder.decodesOnGpu());
  }

  /** Whether the source has more than 8 bits a sample (float32 is converted from them). */
  boolean deepSource() {
    String format = info.pixelFormat();
    return format != null && org.robostream.video.PixelFormats.isDeep(format);
  }
}
