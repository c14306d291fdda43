package org.robostream.codec;

import java.nio.file.Path;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;
import org.robostream.source.ByteSource;

/**
 * What a video's container header says about its video stream: codec, frame size, pixel format.
 * Reading it opens the container only: no packet index is scanned and nothing is decoded, so it
 * costs the header's bytes (for a remote file with its {@code moov} box at the end, a read of the
 * tail), which makes it cheap enough to check every camera's real size when a dataset is opened.
 * Immutable, thread-safe.
 *
 * @param codec FFmpeg's codec name (h264, hevc, av1, ...)
 * @param pixelFormat FFmpeg's pixel format name, from the container or the codec configuration
 *     record; "unknown" when neither says
 */
public record VideoHeader(String file, String codec, int width, int height, String pixelFormat) {
  /**
   * Reads the header of the video over {@code source}, which it closes.
   *
   * @throws VideoException naming the file when the bytes are not a readable video
   */
  public static VideoHeader read(ByteSource source) {
    try (Demuxer demuxer = new Demuxer(source)) {
      AVCodecParameters p = demuxer.stream().codecpar();
      int format = ExtradataPixelFormat.of(p);
      BytePointer formatName = format < 0 ? null : avutil.av_get_pix_fmt_name(format);
      return new VideoHeader(
          demuxer.file(),
          avcodec.avcodec_get_name(p.codec_id()).getString(),
          p.width(),
          p.height(),
          formatName == null || formatName.isNull() ? "unknown" : formatName.getString());
    }
  }

  /** Reads the header of a local video file. */
  public static VideoHeader read(Path file) {
    return read(Decoder.openLocal(file));
  }
}
