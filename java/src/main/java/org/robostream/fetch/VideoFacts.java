package org.robostream.fetch;

import org.bytedeco.ffmpeg.global.avutil;
import org.robostream.codec.Decoder;
import org.robostream.codec.FrameTable;
import org.robostream.video.VideoStreamInfo;

/**
 * What the first decoder of a video file told about it — its stream (size, frame count, first pts,
 * pixel format), its frame table, and whether its decoders run on the GPU — kept for the dataset's
 * life so that a fetch the frame cache serves whole needs no decoder (opening one reads the file's
 * header, about a tenth of a cached epoch's time). Immutable, except the pixel format's FFmpeg
 * code, looked up once on first use (a JNI call that cached fetches ask for again and again, and
 * that fetches without a cache never need); thread-safe: two threads computing it at once write the
 * same value.
 */
public final class VideoFacts {
  private static final int UNKNOWN = Integer.MIN_VALUE;

  private final VideoStreamInfo info;
  private final FrameTable table;
  private final boolean decodesOnGpu;
  private volatile int pixelFormat = UNKNOWN;

  private VideoFacts(VideoStreamInfo info, FrameTable table, boolean decodesOnGpu) {
    this.info = info;
    this.table = table;
    this.decodesOnGpu = decodesOnGpu;
  }

  public static VideoFacts of(Decoder decoder) {
    return new VideoFacts(decoder.info(), decoder.frameTable(), decoder.decodesOnGpu());
  }

  VideoStreamInfo info() {
    return info;
  }

  FrameTable table() {
    return table;
  }

  boolean decodesOnGpu() {
    return decodesOnGpu;
  }

  /** The stream's FFmpeg pixel format, -1 when it names none FFmpeg knows. */
  int pixelFormat() {
    int code = pixelFormat;
    if (code == UNKNOWN) {
      String name = info.pixelFormat();
      code = name == null ? -1 : avutil.av_get_pix_fmt(name);
      pixelFormat = code;
    }
    return code;
  }

  /** What every decoded picture of the file is: the stream's size and pixel format. */
  CachedFetch.Expected expected() {
    return new CachedFetch.Expected(info.width(), info.height(), pixelFormat());
  }
}
