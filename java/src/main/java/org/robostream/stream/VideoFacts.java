package org.robostream.stream;

import org.bytedeco.ffmpeg.global.avutil;
import org.robostream.video.FrameTable;
import org.robostream.video.VideoDecoder;
import org.robostream.video.VideoStreamInfo;

/**
 * What the first decoder of a video file told about it — its stream (size, frame count, first pts,
 * pixel format), its frame table, and whether its decoders run on the GPU — kept for the dataset's
 * life so that a fetch the frame cache serves whole needs no decoder (opening one reads the file's
 * header, about a tenth of a cached epoch's time). The pixel format's FFmpeg code is looked up
 * once, when the facts are taken (a JNI call that fetches would otherwise ask for again and again).
 * Immutable.
 *
 * @param pixelFormat the stream's FFmpeg pixel format, -1 when it names none FFmpeg knows
 */
record VideoFacts(VideoStreamInfo info, FrameTable table, boolean decodesOnGpu, int pixelFormat) {
  static VideoFacts of(VideoDecoder decoder) {
    String name = decoder.info().pixelFormat();
    return new VideoFacts(
        decoder.info(),
        decoder.frameTable(),
        decoder.decodesOnGpu(),
        name == null ? -1 : avutil.av_get_pix_fmt(name));
  }

  /** What every decoded picture of the file is: the stream's size and pixel format. */
  CachedFetch.Expected expected() {
    return new CachedFetch.Expected(info.width(), info.height(), pixelFormat);
  }
}
