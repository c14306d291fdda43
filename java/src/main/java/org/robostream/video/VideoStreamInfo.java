package org.robostream.video;

import java.util.Arrays;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;

/**
 * What a video's container says about its video stream, read without decoding. Immutable and
 * thread-safe. Timestamps are seconds (pts in the stream's time base times the time base).
 *
 * @param codec FFmpeg's codec name (h264, hevc, av1, mpeg4, vp9, ...)
 * @param pixelFormat FFmpeg's pixel format name, from the container or the codec configuration
 *     record (av1C, hvcC, avcC); "unknown" when neither says (VP9 in WebM, for example)
 * @param averageFps the container's average frame rate; informational only, never used to locate
 *     frames
 * @param frameCount number of presented frames found in the packet index
 * @param durationSeconds last frame's pts minus first frame's pts plus the last frame's duration
 *     (its packet's duration in the container; the gap to the frame before where none is stored)
 * @param keyframeTimestamps pts (seconds) of each keyframe, ascending
 */
public record VideoStreamInfo(
    String file,
    String codec,
    int width,
    int height,
    String pixelFormat,
    int timeBaseNumerator,
    int timeBaseDenominator,
    double averageFps,
    int frameCount,
    double durationSeconds,
    double firstPtsSeconds,
    double lastPtsSeconds,
    double[] keyframeTimestamps,
    String colorMatrix,
    String colorRange,
    long sizeBytes) {

  public VideoStreamInfo {
    keyframeTimestamps = keyframeTimestamps.clone();
  }

  /**
   * Reads what {@code stream}'s container says, with the frame times of its packet index (no
   * decoding happens for it).
   */
  static VideoStreamInfo of(String file, AVStream stream, FrameIndex index, long sizeBytes) {
    AVCodecParameters p = stream.codecpar();
    int pixelFormat = ExtradataPixelFormat.of(p);
    int frames = index.frameCount();
    double first = index.frameSeconds(0);
    double last = index.frameSeconds(frames - 1);
    // The container's duration of the last frame; the gap before it only where none is stored
    // (on variable frame rate that gap can be several periods).
    double lastDuration =
        index.lastFrameDurationSeconds() > 0
            ? index.lastFrameDurationSeconds()
            : frames > 1 ? last - index.frameSeconds(frames - 2) : 0.0;
    AVRational rate = stream.avg_frame_rate();
    double fps =
        rate.den() != 0 && rate.num() != 0
            ? rate.num() / (double) rate.den()
            : (frames > 1 ? (frames - 1) / (last - first) : 0.0);
    return new VideoStreamInfo(
        file,
        avcodec.avcodec_get_name(p.codec_id()).getString(),
        p.width(),
        p.height(),
        nameOrUnknown(pixelFormat < 0 ? null : avutil.av_get_pix_fmt_name(pixelFormat)),
        stream.time_base().num(),
        stream.time_base().den(),
        fps,
        frames,
        last - first + lastDuration,
        first,
        last,
        index.keyframeSeconds(),
        nameOrUnknown(avutil.av_color_space_name(p.color_space())),
        nameOrUnknown(avutil.av_color_range_name(p.color_range())),
        sizeBytes);
  }

  /** FFmpeg's name for a value, or "unknown" where it has none. */
  private static String nameOrUnknown(BytePointer name) {
    return name == null || name.isNull() ? "unknown" : name.getString();
  }

  @Override
  public double[] keyframeTimestamps() {
    return keyframeTimestamps.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VideoStreamInfo other
        && file.equals(other.file)
        && frameCount == other.frameCount
        && Arrays.equals(keyframeTimestamps, other.keyframeTimestamps)
        && codec.equals(other.codec);
  }

  @Override
  public int hashCode() {
    return file.hashCode() * 31 + frameCount;
  }
}
