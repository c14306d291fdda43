package org.robostream.codec;

import java.util.Arrays;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;
import org.robostream.video.VideoStreamInfo;

/**
 * Exact timing of every frame of one video stream, built from the container's packets (demuxed,
 * never decoded): presentation timestamps, decode order and GOP structure.
 *
 * <p>Frames are numbered in presentation order (frame index 0 is the first frame shown). Each frame
 * knows the GOP it must be decoded from: normally the GOP of its packet, the previous one for the
 * leading pictures of an open GOP (pts before their keyframe), which a decoder seeking to that
 * keyframe drops. Immutable and thread-safe.
 */
final class FrameIndex {
  private final long[] packetDts; // decode order
  private final long[] packetPos; // decode order: byte position in the file, -1 unknown
  private final int[] packetGop; // decode order
  private final int[] gopStartPacket; // first packet (keyframe) of each GOP
  private final long[] gopKeyPts;
  private final long[] framePts; // presentation order, strictly increasing
  private final double[] frameSeconds;
  private final int[] frameSeekGop;
  private final long lastFrameDuration; // 0 when the container does not say
  private final double timeBase;

  private FrameIndex(
      long[] packetDts,
      long[] packetPos,
      int[] packetGop,
      int[] gopStartPacket,
      long[] gopKeyPts,
      long[] framePts,
      int[] frameSeekGop,
      long lastFrameDuration,
      double timeBase) {
    this.gopKeyPts = gopKeyPts;
    this.packetDts = packetDts;
    this.packetPos = packetPos;
    this.packetGop = packetGop;
    this.gopStartPacket = gopStartPacket;
    this.framePts = framePts;
    this.frameSeekGop = frameSeekGop;
    this.lastFrameDuration = lastFrameDuration;
    this.timeBase = timeBase;
    this.frameSeconds = new double[framePts.length];
    for (int i = 0; i < framePts.length; i++) {
      frameSeconds[i] = framePts[i] * timeBase;
    }
  }

  /** Collects packets in decode order, then derives the frame table. */
  static final class Builder {
    private long[] pts = new long[1024];
    private long[] dts = new long[1024];
    private long[] pos = new long[1024];
    private boolean[] key = new boolean[1024];
    private boolean[] shown = new boolean[1024];
    private long[] duration = new long[1024];
    private int count;

    /**
     * @param position the packet's byte position in the file, -1 when unknown
     * @param packetDuration the container's display duration of the packet, 0 if unknown
     */
    void add(
        long packetPts,
        long packetDts,
        boolean keyframe,
        boolean presented,
        long position,
        long packetDuration) {
      if (count == pts.length) {
        int n = count * 2;
        pts = Arrays.copyOf(pts, n);
        dts = Arrays.copyOf(dts, n);
        pos = Arrays.copyOf(pos, n);
        key = Arrays.copyOf(key, n);
        shown = Arrays.copyOf(shown, n);
        duration = Arrays.copyOf(duration, n);
      }
      pts[count] = packetPts;
      dts[count] = packetDts;
      pos[count] = position;
      key[count] = keyframe;
      shown[count] = presented;
      duration[count] = Math.max(0, packetDuration);
      count++;
    }

    int count() {
      return count;
    }

    FrameIndex build(double timeBase) {
      int[] gopOf = new int[count];
      int[] gopStarts = new int[count];
      int gops = 0;
      for (int i = 0; i < count; i++) {
        // A stream that does not start on a keyframe still decodes from its first packet.
        if (key[i] || i == 0) {
          gopStarts[gops++] = i;
        }
        gopOf[i] = gops - 1;
      }
      gopStarts = Arrays.copyOf(gopStarts, gops);

      int shownCount = 0;
      for (int i = 0; i < count; i++) {
        if (shown[i]) {
          shownCount++;
        }
      }
      // Sort presented packets by pts, keeping their GOP.
      Integer[] order = new Integer[shownCount];
      int k = 0;
      for (int i = 0; i < count; i++) {
        if (shown[i]) {
          order[k++] = i;
        }
      }
      Arrays.sort(order, (a, b) -> Long.compare(pts[a], pts[b]));
      long[] framePts = new long[shownCount];
      int[] seekGop = new int[shownCount];
      int frames = 0;
      for (int j = 0; j < shownCount; j++) {
        int packet = order[j];
        if (frames > 0 && framePts[frames - 1] == pts[packet]) {
          continue; // duplicate pts (damaged file): one frame per timestamp
        }
        int gop = gopOf[packet];
        long keyPts = pts[gopStarts[gop]];
        framePts[frames] = pts[packet];
        seekGop[frames] = pts[packet] < keyPts && gop > 0 ? gop - 1 : gop;
        frames++;
      }
      long[] keyPts = new long[gops];
      for (int g = 0; g < gops; g++) {
        keyPts[g] = pts[gopStarts[g]];
      }
      long lastDuration = shownCount > 0 ? duration[order[shownCount - 1]] : 0;
      return new FrameIndex(
          Arrays.copyOf(dts, count),
          Arrays.copyOf(pos, count),
          gopOf,
          gopStarts,
          keyPts,
          Arrays.copyOf(framePts, frames),
          Arrays.copyOf(seekGop, frames),
          lastDuration,
          timeBase);
    }
  }

  int frameCount() {
    return framePts.length;
  }

  int packetCount() {
    return packetDts.length;
  }

  long framePts(int frame) {
    return framePts[frame];
  }

  double frameSeconds(int frame) {
    return frameSeconds[frame];
  }

  /**
   * How long the last frame is shown (seconds), from its packet's duration in the container (MP4
   * sample table, Matroska block or default duration); 0 when the container does not say.
   */
  double lastFrameDurationSeconds() {
    return lastFrameDuration * timeBase;
  }

  /** The GOP whose keyframe a decoder must start from to output {@code frame}. */
  int seekGop(int frame) {
    return frameSeekGop[frame];
  }

  /**
   * Byte position in the file of the first packet a decoder reads to output {@code frame} (the
   * keyframe of its seek GOP), -1 when the container does not tell.
   */
  long seekPosition(int frame) {
    return packetPos[gopStartPacket[frameSeekGop[frame]]];
  }

  int gopStartPacket(int gop) {
    return gopStartPacket[gop];
  }

  long gopStartDts(int gop) {
    return packetDts[gopStartPacket[gop]];
  }

  /** The pts of {@code gop}'s keyframe, in the stream's time base. */
  long gopKeyPts(int gop) {
    return gopKeyPts[gop];
  }

  int gopOfPacket(int packet) {
    return packetGop[packet];
  }

  /** Decode-order index of the packet with this dts, or -1. */
  int packetWithDts(long dts) {
    // dts is non-decreasing in decode order; search the first match.
    int i = Arrays.binarySearch(packetDts, dts);
    if (i < 0) {
      return -1;
    }
    while (i > 0 && packetDts[i - 1] == dts) {
      i--;
    }
    return i;
  }

  /** Presentation index of the frame with exactly this pts, or -1. */
  int frameWithPts(long pts) {
    int i = Arrays.binarySearch(framePts, pts);
    return i >= 0 ? i : -1;
  }

  /** Presentation index of the frame whose pts is nearest to {@code seconds} (ties: earlier). */
  int nearestFrame(double seconds) {
    int i = Arrays.binarySearch(frameSeconds, seconds);
    if (i >= 0) {
      return i;
    }
    int after = -i - 1;
    if (after == 0) {
      return 0;
    }
    if (after >= frameSeconds.length) {
      return frameSeconds.length - 1;
    }
    double dBefore = seconds - frameSeconds[after - 1];
    double dAfter = frameSeconds[after] - seconds;
    return dAfter < dBefore ? after : after - 1;
  }

  /** Keyframe pts (seconds) of each GOP, ascending. */
  double[] keyframeSeconds() {
    double[] out = new double[gopKeyPts.length];
    for (int g = 0; g < out.length; g++) {
      out[g] = gopKeyPts[g] * timeBase;
    }
    Arrays.sort(out);
    return out;
  }

  /**
   * Reads what {@code stream}'s container says, with this index's frame times (no decoding happens
   * for it).
   */
  VideoStreamInfo streamInfo(String file, AVStream stream, long sizeBytes) {
    AVCodecParameters p = stream.codecpar();
    int pixelFormat = ExtradataPixelFormat.of(p);
    int frames = frameCount();
    double first = frameSeconds(0);
    double last = frameSeconds(frames - 1);
    // The container's duration of the last frame; the gap before it only where none is stored
    // (on variable frame rate that gap can be several periods).
    double lastDuration =
        lastFrameDurationSeconds() > 0
            ? lastFrameDurationSeconds()
            : frames > 1 ? last - frameSeconds(frames - 2) : 0.0;
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
        keyframeSeconds(),
        nameOrUnknown(avutil.av_color_space_name(p.color_space())),
        nameOrUnknown(avutil.av_color_range_name(p.color_range())),
        sizeBytes);
  }

  /** FFmpeg's name for a value, or "unknown" where it has none. */
  private static String nameOrUnknown(BytePointer name) {
    return name == null || name.isNull() ? "unknown" : name.getString();
  }
}
