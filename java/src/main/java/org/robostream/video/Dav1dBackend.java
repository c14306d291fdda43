package org.robostream.video;

import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.robostream.nativecore.Av1Decoder;
import org.robostream.nativecore.NativeException;

/**
 * AV1 decoding with dav1d inside the native core: packets demuxed by FFmpeg go to dav1d, pictures
 * are converted by libyuv straight into the slot. Not thread-safe: one per decoder.
 */
final class Dav1dBackend implements FrameBackend {
  private final String file;
  private final ColorSpec.Matrix containerMatrix;
  private final boolean containerFullRange;
  private final Av1Decoder decoder;
  private long[] current;

  Dav1dBackend(String file, AVCodecParameters parameters, int threads) {
    this.file = file;
    this.containerMatrix = ColorSpec.fromAvColorSpace(parameters.color_space());
    this.containerFullRange = ColorSpec.isFullRange(parameters.color_range());
    this.decoder = new Av1Decoder(threads);
  }

  @Override
  public void send(AVPacket packet) {
    try {
      decoder.send(packet.data().address(), packet.size(), Demuxer.ptsOf(packet));
    } catch (NativeException.CorruptData | NativeException.InvalidArgument e) {
      throw new CorruptVideoException(file, "AV1 decoding failed at packet pts " + packet.pts()
          + ": " + e.getMessage(), e);
    } catch (NativeException e) {
      throw new UnsupportedVideoException(file, e.getMessage(), e);
    }
  }

  @Override
  public void drain() {
    try {
      decoder.drain();
    } catch (NativeException e) {
      throw new CorruptVideoException(file, e.getMessage(), e);
    }
  }

  @Override
  public boolean receive() {
    try {
      current = decoder.nextPicture();
    } catch (NativeException e) {
      throw new CorruptVideoException(file, e.getMessage(), e);
    }
    return current != null;
  }

  @Override
  public long currentPts() {
    return current[Av1Decoder.INFO_PTS];
  }

  @Override
  public int currentWidth() {
    return (int) current[Av1Decoder.INFO_WIDTH];
  }

  @Override
  public int currentHeight() {
    return (int) current[Av1Decoder.INFO_HEIGHT];
  }

  @Override
  public void convertCurrent(long dst, FrameLayout layout) {
    ColorSpec.Matrix streamMatrix =
        ColorSpec.Matrix.fromNative((int) current[Av1Decoder.INFO_MATRIX]);
    boolean full = current[Av1Decoder.INFO_FULL_RANGE] != 0 || containerFullRange;
    ColorSpec color = ColorSpec.resolve(streamMatrix, containerMatrix, full);
    try {
      decoder.convertCurrent(color.matrix().nativeCode(), color.fullRange(), dst,
          layout.nativeCode());
    } catch (NativeException.Unsupported e) {
      throw new UnsupportedVideoException(file, e.getMessage(), e);
    } catch (NativeException e) {
      throw new CorruptVideoException(file, e.getMessage(), e);
    }
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
    decoder.close();
  }
}
