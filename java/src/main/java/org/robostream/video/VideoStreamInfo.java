package org.robostream.video;

import java.util.Arrays;

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
