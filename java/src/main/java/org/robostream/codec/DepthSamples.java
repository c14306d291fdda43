package org.robostream.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.ffmpeg.avutil.AVComponentDescriptor;
import org.bytedeco.ffmpeg.avutil.AVPixFmtDescriptor;
import org.bytedeco.ffmpeg.global.avutil;
import org.robostream.nativecore.NativeAddress;
import org.robostream.video.FrameSamples;
import org.robostream.video.UnsupportedVideoException;

/**
 * A depth map's values into a one-channel slot: the first plane of a planar gray or YUV picture
 * (gray, gray10le, gray12le, gray16le; the Y plane of yuv420p16le), each sample as decoded. uint16
 * keeps the value (12-bit stays 12-bit: depth units survive; 8-bit samples are widened), float32 is
 * the same value as a float. One channel has one memory layout, so HWC and CHW slots are the same.
 * Thread-safe (stateless).
 */
public final class DepthSamples {
  private DepthSamples() {}

  /**
   * Refuses a picture format whose first plane is not a depth value, naming {@code file}: checked
   * when a depth camera's picture is decoded, before it is held or copied.
   *
   * @throws UnsupportedVideoException for RGB, packed, big-endian, float or MSB-aligned formats
   */
  public static void requireDepthMap(String file, int pixelFormat) {
    if (sampleBytes(pixelFormat) < 0) {
      String name =
          pixelFormat < 0 ? "unknown" : avutil.av_get_pix_fmt_name(pixelFormat).getString();
      throw new UnsupportedVideoException(
          file,
          "a depth map (video.is_depth_map) is read from a planar gray or YUV picture (gray,"
              + " gray10le, gray12le, gray16le, yuv420p16le, ...); this one is "
              + name);
    }
  }

  /**
   * Copies {@code p}'s depth values into {@code dst} as {@code samples} (a depth kind); its format
   * passed {@link #requireDepthMap}.
   */
  static void copy(RawPicture p, long dst, FrameSamples samples) {
    int sampleBytes = sampleBytes(p.pixelFormat());
    if (sampleBytes < 0 || !samples.isDepth()) {
      throw new IllegalStateException(
          "cannot copy pixel format " + p.pixelFormat() + " as " + samples);
    }
    int w = p.width();
    int rowOut = w * samples.valueBytes();
    for (int y = 0; y < p.height(); y++) {
      long from = p.planes()[0] + (long) y * p.strides()[0];
      long to = dst + (long) y * rowOut;
      if (samples == FrameSamples.DEPTH_UINT16 && sampleBytes == 2) {
        NativeAddress.copy(to, from, rowOut);
      } else {
        widenRow(view(from, (long) w * sampleBytes), sampleBytes, view(to, rowOut), samples, w);
      }
    }
  }

  private static void widenRow(
      ByteBuffer in, int sampleBytes, ByteBuffer out, FrameSamples samples, int width) {
    for (int x = 0; x < width; x++) {
      int value = sampleBytes == 2 ? in.getShort(2 * x) & 0xffff : in.get(x) & 0xff;
      if (samples == FrameSamples.DEPTH_FLOAT32) {
        out.putFloat(4 * x, value);
      } else {
        out.putShort(2 * x, (short) value);
      }
    }
  }

  /**
   * Bytes per sample of the first plane (1 up to 8 bits, 2 above), or -1 for formats whose first
   * component is not a plain little-endian plane of its own (RGB, packed, big-endian, float,
   * MSB-aligned like p010): their "first plane" is not a depth value.
   */
  private static int sampleBytes(int pixelFormat) {
    AVPixFmtDescriptor d = pixelFormat < 0 ? null : avutil.av_pix_fmt_desc_get(pixelFormat);
    long refused =
        avutil.AV_PIX_FMT_FLAG_RGB | avutil.AV_PIX_FMT_FLAG_BE | avutil.AV_PIX_FMT_FLAG_FLOAT;
    if (d == null || d.isNull() || (d.flags() & refused) != 0) {
      return -1;
    }
    AVComponentDescriptor c = d.comp(0);
    int bytes = c.depth() > 8 ? 2 : 1;
    boolean ownPlane = c.plane() == 0 && c.step() == bytes && c.offset() == 0 && c.shift() == 0;
    return ownPlane ? bytes : -1;
  }

  private static ByteBuffer view(long address, long bytes) {
    return NativeAddress.bytesAt(address, bytes).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }
}
