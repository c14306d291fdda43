package org.robostream.codec;

import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_DISCARD;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_KEY;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avformat.AVSEEK_FLAG_BACKWARD;
import static org.bytedeco.ffmpeg.global.avformat.av_read_frame;
import static org.bytedeco.ffmpeg.global.avformat.av_seek_frame;
import static org.bytedeco.ffmpeg.global.avformat.avformat_alloc_context;
import static org.bytedeco.ffmpeg.global.avformat.avformat_close_input;
import static org.bytedeco.ffmpeg.global.avformat.avformat_find_stream_info;
import static org.bytedeco.ffmpeg.global.avformat.avformat_open_input;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.AVMEDIA_TYPE_VIDEO;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;

import java.io.IOException;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIndexEntry;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.global.avformat;
import org.robostream.source.ByteSource;
import org.robostream.video.CorruptVideoException;
import org.robostream.video.NotAVideoException;
import org.robostream.video.VideoNotFoundException;

/**
 * FFmpeg demuxing of one video stream over a {@link ByteSource}: open, packet reading, keyframe
 * seeks. Other streams are discarded.
 *
 * <p>Not thread-safe: owned by one {@link Decoder}. Owns the source and the FFmpeg contexts; {@link
 * #close()} is idempotent. Every FFmpeg failure becomes a typed {@link VideoException} naming the
 * file.
 */
final class Demuxer implements AutoCloseable {
  // AVFMT_FLAG_CUSTOM_IO of avformat.h (not exported by the JavaCPP preset).
  private static final int AVFMT_FLAG_CUSTOM_IO = 0x0080;
  private final String file;
  private final AvioInput input;
  private AVFormatContext format;
  private final AVStream stream;
  private final int streamIndex;
  private final AVPacket packet;

  Demuxer(ByteSource source) {
    this.file = source.name();
    try {
      ContentSniffer.requireVideoLike(source);
    } catch (IOException e) {
      closeQuietly(source);
      throw new VideoNotFoundException(file, "cannot read: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      closeQuietly(source);
      throw e;
    }
    this.input = new AvioInput(source);
    AVFormatContext ctx = avformat_alloc_context();
    ctx.pb(input.context());
    ctx.flags(ctx.flags() | AVFMT_FLAG_CUSTOM_IO);
    int rc = avformat_open_input(ctx, (String) null, null, (AVDictionary) null);
    if (rc < 0) {
      // FFmpeg frees a user-supplied context when opening fails.
      IOException ioFailure = input.takeFailure();
      closeQuietly(input);
      if (ioFailure != null) {
        throw new VideoNotFoundException(file, "read failed: " + ioFailure.getMessage(), ioFailure);
      }
      throw new NotAVideoException(
          file, "not a readable video container: " + FfmpegErrors.describe(rc));
    }
    this.format = ctx;
    try {
      int best = findVideoStream(ctx);
      if (best < 0) {
        throw new NotAVideoException(file, "contains no video stream");
      }
      this.streamIndex = best;
      this.stream = ctx.streams(best);
      for (int i = 0; i < ctx.nb_streams(); i++) {
        if (i != best) {
          ctx.streams(i).discard(org.bytedeco.ffmpeg.global.avcodec.AVDISCARD_ALL);
        }
      }
      if (stream.codecpar().width() <= 0 || stream.codecpar().height() <= 0) {
        // Some containers only learn the size from the bitstream.
        int info = avformat_find_stream_info(ctx, (org.bytedeco.javacpp.PointerPointer<?>) null);
        if (info < 0 || stream.codecpar().width() <= 0) {
          throw new CorruptVideoException(file, "video stream has no frame size");
        }
      }
      this.packet = av_packet_alloc();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  private static int findVideoStream(AVFormatContext ctx) {
    for (int i = 0; i < ctx.nb_streams(); i++) {
      AVStream s = ctx.streams(i);
      boolean attachedPicture = (s.disposition() & avformat.AV_DISPOSITION_ATTACHED_PIC) != 0;
      if (s.codecpar().codec_type() == AVMEDIA_TYPE_VIDEO && !attachedPicture) {
        return i;
      }
    }
    return -1;
  }

  String file() {
    return file;
  }

  AVStream stream() {
    return stream;
  }

  long bytesRead() {
    return input.bytesRead();
  }

  double timeBase() {
    return stream.time_base().num() / (double) stream.time_base().den();
  }

  /**
   * Reads the next packet of the video stream into the reusable packet (valid until the next call).
   * Returns null at the end of the stream.
   */
  AVPacket next() {
    av_packet_unref(packet);
    while (true) {
      int rc = av_read_frame(format, packet);
      if (rc == AVERROR_EOF) {
        return null;
      }
      if (rc < 0) {
        IOException io = input.takeFailure();
        if (io != null) {
          throw new VideoNotFoundException(file, "read failed: " + io.getMessage(), io);
        }
        throw new CorruptVideoException(file, "demuxing failed: " + FfmpegErrors.describe(rc));
      }
      if (packet.stream_index() == streamIndex) {
        return packet;
      }
      av_packet_unref(packet);
    }
  }

  static long ptsOf(AVPacket p) {
    return p.pts() != AV_NOPTS_VALUE ? p.pts() : p.dts();
  }

  static long dtsOf(AVPacket p) {
    return p.dts() != AV_NOPTS_VALUE ? p.dts() : p.pts();
  }

  static boolean isKey(AVPacket p) {
    return (p.flags() & AV_PKT_FLAG_KEY) != 0;
  }

  static boolean isDiscarded(AVPacket p) {
    return (p.flags() & AV_PKT_FLAG_DISCARD) != 0;
  }

  /**
   * Demuxes every packet (no decoding) into a frame index, then rewinds to the start. For an MP4
   * with a sample index in its moov box the packets' payload is not read at all (see {@link
   * AvioInput#payloadFree}): the timing comes from the index, so opening a remote file costs its
   * header, not its media data. Anything else (or a packet without an index entry) is scanned with
   * its payload.
   */
  FrameIndex scanIndex() {
    if (payloadFreeScanPossible()) {
      FrameIndex index = scanIndex(true);
      if (index != null) {
        return index;
      }
      seekToStart();
    }
    return scanIndex(false);
  }

  /**
   * An MP4 with a sample index in its moov box: its demuxer takes pts, dts and sync-sample flags
   * from that index, so the scan needs no sample data. Keyframe flags are taken from the index
   * entries, not the packets: FFmpeg's H.264/HEVC parsers read the (zeroed) payload and would clear
   * them (measured: camera_h264's 16 GOPs became 1). PayloadFreeScanTest checks the result against
   * the real scan for every codec.
   */
  private boolean payloadFreeScanPossible() {
    return isMp4Family() && avformat.avformat_index_get_entries_count(stream) > 0;
  }

  /**
   * Scans the packets into a frame index; {@code withoutPayload}: without reading sample data, with
   * keyframe and discard flags from the container index, matched by file position. Returns null
   * when a packet has no index entry (a layout this shortcut does not cover).
   */
  FrameIndex scanIndex(boolean withoutPayload) {
    java.util.Map<Long, Integer> indexFlags = withoutPayload ? indexFlagsByPosition() : null;
    FrameIndex.Builder builder = new FrameIndex.Builder();
    int formatFlags = format.flags();
    try {
      if (withoutPayload) {
        // No parser may see the zeroed payload (it would log errors and rewrite flags); the mov
        // demuxer sets every timestamp itself, so nothing needs filling in either.
        format.flags(
            formatFlags | AVFormatContext.AVFMT_FLAG_NOPARSE | AVFormatContext.AVFMT_FLAG_NOFILLIN);
      }
      input.payloadFree(withoutPayload);
      for (AVPacket p = next(); p != null; p = next()) {
        if (p.size() <= 0) {
          continue;
        }
        if (withoutPayload) {
          Integer flags = indexFlags.get(p.pos());
          if (flags == null) {
            return null;
          }
          builder.add(
              ptsOf(p),
              dtsOf(p),
              (flags & AVIndexEntry.AVINDEX_KEYFRAME) != 0,
              (flags & AVIndexEntry.AVINDEX_DISCARD_FRAME) == 0 && !isDiscarded(p),
              p.pos(),
              p.duration());
        } else {
          builder.add(ptsOf(p), dtsOf(p), isKey(p), !isDiscarded(p), p.pos(), p.duration());
        }
      }
    } finally {
      input.payloadFree(false);
      format.flags(formatFlags);
    }
    if (builder.count() == 0) {
      throw new CorruptVideoException(file, "video stream has no packets (truncated?)");
    }
    // MP4's index lists every sample; fewer readable packets means the media data is cut short.
    int indexed = avformat.avformat_index_get_entries_count(stream);
    if (indexed > builder.count() && isMp4Family()) {
      throw new CorruptVideoException(
          file,
          "truncated: the container index lists "
              + indexed
              + " samples but only "
              + builder.count()
              + " could be read");
    }
    FrameIndex index = builder.build(timeBase());
    if (index.frameCount() == 0) {
      throw new CorruptVideoException(file, "video stream presents no frames");
    }
    seekToGop(index, 0);
    return index;
  }

  private java.util.Map<Long, Integer> indexFlagsByPosition() {
    int n = avformat.avformat_index_get_entries_count(stream);
    java.util.Map<Long, Integer> flags = new java.util.HashMap<>(n * 2);
    for (int i = 0; i < n; i++) {
      AVIndexEntry e = avformat.avformat_index_get_entry(stream, i);
      flags.put(e.pos(), e.flags());
    }
    return flags;
  }

  private void seekToStart() {
    av_packet_unref(packet);
    long first = avformat.avformat_index_get_entry(stream, 0).timestamp();
    int rc = av_seek_frame(format, streamIndex, first, AVSEEK_FLAG_BACKWARD);
    if (rc < 0) {
      throw new CorruptVideoException(
          file, "cannot seek back to the first packet (" + FfmpegErrors.describe(rc) + ")");
    }
  }

  /** Tells the source that the bytes at {@code position} will be read soon. */
  void prefetch(long position) {
    input.prefetch(position);
  }

  /** Bytes the packet scan did not have to read. */
  long bytesSkipped() {
    return input.bytesSkipped();
  }

  private boolean isMp4Family() {
    return format.iformat() != null && format.iformat().name().getString().contains("mp4");
  }

  /** Positions the demuxer at or before the keyframe starting {@code gop}. */
  void seekToGop(FrameIndex index, int gop) {
    av_packet_unref(packet);
    // By the keyframe's pts, not its packet's dts: MP4's index carries timestamps shifted by the
    // edit list (by the B-frame delay for H.264/HEVC with B-frames), so a backward seek to the
    // packet's dts landed on the keyframe before and decoded a whole GOP for nothing (measured:
    // 350 frames for a 300-frame episode of GOP 250). Any keyframe after this one is at least a
    // GOP later, so the key's pts still finds this one where the index holds plain dts.
    int rc = av_seek_frame(format, streamIndex, index.gopKeyPts(gop), AVSEEK_FLAG_BACKWARD);
    if (rc < 0) {
      IOException io = input.takeFailure();
      if (io != null) {
        throw new VideoNotFoundException(file, "read failed: " + io.getMessage(), io);
      }
      throw new CorruptVideoException(
          file, "seek to GOP " + gop + " failed: " + FfmpegErrors.describe(rc));
    }
  }

  @Override
  public void close() {
    if (packet != null && !packet.isNull()) {
      av_packet_free(packet);
    }
    if (format != null) {
      avformat_close_input(format);
      format = null;
    }
    closeQuietly(input);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // Closing a read-only source cannot lose data; the original failure matters more.
    }
  }
}
