package org.robostream.codec;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_H264;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_HEVC;
import static org.bytedeco.ffmpeg.global.avcodec.av_bsf_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_bsf_flush;
import static org.bytedeco.ffmpeg.global.avcodec.av_bsf_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_bsf_get_by_name;
import static org.bytedeco.ffmpeg.global.avcodec.av_bsf_init;
import static org.bytedeco.ffmpeg.global.avcodec.av_bsf_receive_packet;
import static org.bytedeco.ffmpeg.global.avcodec.av_bsf_send_packet;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_ref;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_copy;

import org.bytedeco.ffmpeg.avcodec.AVBSFContext;
import org.bytedeco.ffmpeg.avcodec.AVBitStreamFilter;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.robostream.video.CorruptVideoException;
import org.robostream.video.UnsupportedVideoException;

/**
 * H.264 / HEVC packets from MP4 (length-prefixed NAL units, parameter sets in the extradata) turned
 * into Annex-B (start codes, parameter sets in front of keyframes), the form NVDEC's parser takes —
 * FFmpeg's {@code h264_mp4toannexb} / {@code hevc_mp4toannexb}, the same filters
 * scripts/tests/make-gpu-fixtures.sh applies with the ffmpeg CLI. Streams already in Annex-B pass
 * through. One packet in, one packet out.
 *
 * <p>Not thread-safe: owned by one decoder. {@link #close()} is idempotent.
 */
final class AnnexBFilter implements AutoCloseable {
  private final String file;
  private AVBSFContext context;
  private AVPacket out;

  private AnnexBFilter(String file, AVBSFContext context) {
    this.file = file;
    this.context = context;
    this.out = av_packet_alloc();
  }

  /** The filter for the stream's codec, or null for codecs NVDEC takes as demuxed (AV1, VP9). */
  static AnnexBFilter forStream(String file, AVCodecParameters parameters, AVRational timeBase) {
    String name =
        switch (parameters.codec_id()) {
          case AV_CODEC_ID_H264 -> "h264_mp4toannexb";
          case AV_CODEC_ID_HEVC -> "hevc_mp4toannexb";
          default -> null;
        };
    if (name == null) {
      return null;
    }
    AVBitStreamFilter filter = av_bsf_get_by_name(name);
    if (filter == null) {
      throw new UnsupportedVideoException(file, "FFmpeg has no " + name + " bitstream filter");
    }
    AVBSFContext context = new AVBSFContext(null);
    FfmpegErrors.check(file, av_bsf_alloc(filter, context), "av_bsf_alloc");
    try {
      FfmpegErrors.check(
          file, avcodec_parameters_copy(context.par_in(), parameters), "avcodec_parameters_copy");
      context.time_base_in(timeBase);
      FfmpegErrors.check(file, av_bsf_init(context), name);
    } catch (RuntimeException e) {
      av_bsf_free(context);
      throw e;
    }
    return new AnnexBFilter(file, context);
  }

  /**
   * The Annex-B form of {@code packet} (not modified); valid until the next call. Throws {@link
   * CorruptVideoException} for packets the filter rejects.
   */
  AVPacket filter(AVPacket packet) {
    av_packet_unref(out);
    AVPacket in = av_packet_alloc();
    try {
      FfmpegErrors.check(file, av_packet_ref(in, packet), "av_packet_ref");
      int rc = av_bsf_send_packet(context, in);
      if (rc < 0) {
        throw new CorruptVideoException(
            file,
            "Annex-B conversion rejected the packet at pts "
                + packet.pts()
                + " ("
                + FfmpegErrors.describe(rc)
                + ")");
      }
      rc = av_bsf_receive_packet(context, out);
      if (rc < 0) {
        throw new CorruptVideoException(
            file,
            "Annex-B conversion produced no packet for pts "
                + packet.pts()
                + " ("
                + FfmpegErrors.describe(rc)
                + ")");
      }
      return out;
    } finally {
      av_packet_free(in);
    }
  }

  /**
   * Forgets the stream position (a seek): the filter then puts the parameter sets in front of the
   * next IDR picture again, which a freshly created NVDEC parser needs. (A keyframe that is not an
   * IDR picture gets none: NVDEC can start there only after an IDR has been seen.)
   */
  void reset() {
    av_bsf_flush(context);
  }

  @Override
  public void close() {
    if (context != null) {
      av_bsf_free(context);
      context = null;
    }
    if (out != null) {
      av_packet_free(out);
      out = null;
    }
  }
}
