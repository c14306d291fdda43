package org.robostream.codec;

import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;

/**
 * Derives the pixel format from a codec's configuration record (av1C, hvcC, avcC) when the
 * container does not declare it, so that {@code probe} reports it without decoding a frame.
 * Thread-safe (stateless). Returns FFmpeg's AV_PIX_FMT_NONE (-1) when the record does not say.
 */
final class ExtradataPixelFormat {
  private ExtradataPixelFormat() {}

  static int of(AVCodecParameters p) {
    if (p.format() >= 0) {
      return p.format();
    }
    int size = p.extradata_size();
    BytePointer data = p.extradata();
    if (size <= 0 || data == null || data.isNull()) {
      return -1;
    }
    byte[] b = new byte[size];
    data.capacity(size).get(b);
    int codec = p.codec_id();
    if (codec == avcodec.AV_CODEC_ID_AV1) {
      return av1c(b);
    }
    if (codec == avcodec.AV_CODEC_ID_HEVC) {
      return hvcc(b);
    }
    if (codec == avcodec.AV_CODEC_ID_H264) {
      return avcc(b);
    }
    return -1;
  }

  /** av1C: byte 2 = tier, high_bitdepth, twelve_bit, monochrome, subsampling x, y, position. */
  static int av1c(byte[] b) {
    if (b.length < 4 || (b[0] & 0x80) == 0) {
      return -1;
    }
    int flags = b[2] & 0xff;
    boolean high = (flags & 0x40) != 0;
    boolean twelve = (flags & 0x20) != 0;
    boolean mono = (flags & 0x10) != 0;
    int ssx = (flags >> 3) & 1;
    int ssy = (flags >> 2) & 1;
    int depth = twelve ? 12 : high ? 10 : 8;
    int chroma = mono ? 0 : ssx == 1 && ssy == 1 ? 420 : ssx == 1 ? 422 : 444;
    return planar(chroma, depth);
  }

  /** hvcC: byte 16 low 2 bits = chroma_format_idc, byte 17 low 3 bits = luma bit depth - 8. */
  static int hvcc(byte[] b) {
    if (b.length < 23 || b[0] != 1) {
      return -1;
    }
    return planar(idcToChroma(b[16] & 3), 8 + (b[17] & 7));
  }

  /**
   * avcC: Baseline, Main and Extended are 4:2:0 8-bit; higher profiles append chroma_format and bit
   * depths after the SPS and PPS arrays.
   */
  static int avcc(byte[] b) {
    if (b.length < 7 || b[0] != 1) {
      return -1;
    }
    int profile = b[1] & 0xff;
    // ISO 14496-15 lists 100/110/122/144; muxers (FFmpeg's among them) write the fields for
    // every profile above Baseline/Main/Extended, High 4:4:4 Predictive (244) included.
    boolean extended = profile != 66 && profile != 77 && profile != 88;
    if (!extended) {
      return planar(420, 8);
    }
    int pos = 5;
    int sps = b[pos++] & 0x1f;
    for (int i = 0; i < sps; i++) {
      if (pos + 2 > b.length) {
        return -1;
      }
      pos += 2 + (((b[pos] & 0xff) << 8) | (b[pos + 1] & 0xff));
    }
    if (pos >= b.length) {
      return -1;
    }
    int pps = b[pos++] & 0xff;
    for (int i = 0; i < pps; i++) {
      if (pos + 2 > b.length) {
        return -1;
      }
      pos += 2 + (((b[pos] & 0xff) << 8) | (b[pos + 1] & 0xff));
    }
    if (pos + 2 > b.length) {
      return profile == 100 ? planar(420, 8) : -1; // old muxers omit the fields for High
    }
    return planar(idcToChroma(b[pos] & 3), 8 + (b[pos + 1] & 7));
  }

  private static int idcToChroma(int idc) {
    return switch (idc) {
      case 0 -> 0;
      case 1 -> 420;
      case 2 -> 422;
      default -> 444;
    };
  }

  private static int planar(int chroma, int depth) {
    String name =
        switch (chroma) {
          case 0 -> depth == 8 ? "gray" : "gray" + depth + "le";
          case 420, 422, 444 -> "yuv" + chroma + "p" + (depth == 8 ? "" : depth + "le");
          default -> null;
        };
    return name == null ? -1 : avutil.av_get_pix_fmt(name);
  }
}
