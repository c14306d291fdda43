package org.robostream.codec;

import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.global.avutil;
import org.robostream.NativeException;
import org.robostream.nativecore.Av1Decoder;
import org.robostream.video.ColorConverterKind;
import org.robostream.video.CorruptVideoException;
import org.robostream.video.FrameSamples;
import org.robostream.video.UnsupportedVideoException;

/**
 * AV1 decoding with dav1d inside the native core: packets demuxed by FFmpeg go to dav1d, and its
 * pictures are converted straight into the destination slot by the chosen converter (swscale by
 * default, handed dav1d's planes by address; libyuv in the core on request, see {@link
 * ColorConverterKind}), or handed out unconverted to a picture sink. Not thread-safe: one per
 * decoder.
 */
final class Dav1dBackend implements FrameBackend {
  private final String file;
  private final ColorSpec.Matrix containerMatrix;
  private final boolean containerFullRange;
  private final Av1Decoder decoder;
  private long[] current;
  private final ColorConverterKind converter;
  private SwscaleConverter swscale;

  Dav1dBackend(
      String file,
      AVCodecParameters parameters,
      int threads,
      boolean lowLatency,
      ColorConverterKind converter) {
    this.file = file;
    this.converter = converter;
    this.containerMatrix = ColorSpec.fromAvColorSpace(parameters.color_space());
    this.containerFullRange = ColorSpec.isFullRange(parameters.color_range());
    this.decoder = new Av1Decoder(threads, lowLatency);
  }

  @Override
  public void send(AVPacket packet) {
    NativeDecoderCalls.send(
        file,
        "AV1 decoding failed at packet pts " + packet.pts(),
        () -> decoder.send(packet.data().address(), packet.size(), Demuxer.ptsOf(packet)));
  }

  @Override
  public void drain() {
    NativeDecoderCalls.run(file, decoder::drain);
  }

  @Override
  public boolean receive() {
    return NativeDecoderCalls.query(
        file,
        () -> {
          current = decoder.nextPicture();
          return current != null;
        });
  }

  @Override
  public long currentPts() {
    return current[Av1Decoder.INFO_PTS];
  }

  @Override
  public int width() {
    return (int) current[Av1Decoder.INFO_WIDTH];
  }

  @Override
  public int height() {
    return (int) current[Av1Decoder.INFO_HEIGHT];
  }

  private ColorSpec currentColor() {
    ColorSpec.Matrix streamMatrix =
        ColorSpec.Matrix.fromNative((int) current[Av1Decoder.INFO_MATRIX]);
    boolean full = current[Av1Decoder.INFO_FULL_RANGE] != 0 || containerFullRange;
    return ColorSpec.resolve(streamMatrix, containerMatrix, full);
  }

  @Override
  public boolean onGpu() {
    return false;
  }

  @Override
  public boolean deep() {
    return PixelFormats.isDeep(raw().pixelFormat());
  }

  @Override
  public RawPicture raw() {
    long[] p = decoder.currentPlanes();
    int format = swscaleFormat((int) p[7], (int) p[8]);
    if (format < 0) {
      throw new UnsupportedVideoException(
          file,
          "AV1 picture with chroma " + p[7] + " and " + p[8] + "-bit samples is not supported");
    }
    return new RawPicture(
        new long[] {p[0], p[1], p[2]},
        new int[] {(int) p[3], (int) p[4], (int) p[4]},
        (int) p[5],
        (int) p[6],
        format,
        currentColor());
  }

  @Override
  public void convertInto(Slot slot) {
    long dst = slot.address();
    FrameSamples samples = slot.samples();
    if (samples.isDepth()) {
      RawPicture picture = raw();
      FrameBackend.requireUnscaled(file, "a depth map", picture.width(), picture.height(), slot);
      DepthSamples.requireDepthMap(file, picture.pixelFormat());
      DepthSamples.copy(picture, dst, samples);
      return;
    }
    boolean unitFloats = samples.isFloat();
    ColorSpec color = currentColor();
    // libyuv writes uint8 only: floats always come from swscale.
    if (converter != ColorConverterKind.LIBYUV || unitFloats) {
      convertWithSwscale(color, slot);
      return;
    }
    FrameBackend.requireUnscaled(file, "libyuv", width(), height(), slot);
    try {
      decoder.convertCurrent(
          color.matrix().nativeCode(), color.fullRange(), dst, slot.layout().nativeCode());
    } catch (NativeException.Unsupported e) {
      throw new UnsupportedVideoException(file, e.getMessage(), e);
    } catch (NativeException e) {
      throw new CorruptVideoException(file, e.getMessage(), e);
    }
  }

  private void convertWithSwscale(ColorSpec color, Slot slot) {
    long[] p = decoder.currentPlanes();
    int chroma = (int) p[7];
    int depth = (int) p[8];
    int format = swscaleFormat(chroma, depth);
    if (format < 0) {
      throw new UnsupportedVideoException(
          file,
          "AV1 picture with chroma " + chroma + " and " + depth + "-bit samples is not supported");
    }
    if (swscale == null) {
      swscale = new SwscaleConverter();
    }
    try {
      swscale.convert(
          new RawPicture(
              new long[] {p[0], p[1], p[2]},
              new int[] {(int) p[3], (int) p[4], (int) p[4]},
              (int) p[5],
              (int) p[6],
              format,
              color),
          slot);
    } catch (IllegalStateException e) {
      throw new UnsupportedVideoException(file, e.getMessage(), e);
    }
  }

  /**
   * FFmpeg pixel format of a dav1d picture layout (chroma 420/422/444, 0 for monochrome; 8, 10 or
   * 12 bits), or -1.
   */
  private static int swscaleFormat(int chroma, int depth) {
    int bits = depth == 8 ? 0 : depth == 10 ? 1 : depth == 12 ? 2 : -1;
    int[] formats =
        switch (chroma) {
          case 0 ->
              new int[] {
                avutil.AV_PIX_FMT_GRAY8, avutil.AV_PIX_FMT_GRAY10LE, avutil.AV_PIX_FMT_GRAY12LE
              };
          case 420 ->
              new int[] {
                avutil.AV_PIX_FMT_YUV420P,
                avutil.AV_PIX_FMT_YUV420P10LE,
                avutil.AV_PIX_FMT_YUV420P12LE
              };
          case 422 ->
              new int[] {
                avutil.AV_PIX_FMT_YUV422P,
                avutil.AV_PIX_FMT_YUV422P10LE,
                avutil.AV_PIX_FMT_YUV422P12LE
              };
          case 444 ->
              new int[] {
                avutil.AV_PIX_FMT_YUV444P,
                avutil.AV_PIX_FMT_YUV444P10LE,
                avutil.AV_PIX_FMT_YUV444P12LE
              };
          default -> null;
        };
    return formats == null || bits < 0 ? -1 : formats[bits];
  }

  @Override
  public void flush() {
    current = null;
    decoder.flush();
  }

  @Override
  public String description() {
    return "dav1d " + Av1Decoder.libraryVersion();
  }

  @Override
  public void close() {
    if (swscale != null) {
      swscale.close();
      swscale = null;
    }
    decoder.close();
  }
}
