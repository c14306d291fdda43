package org.robostream.video;

/**
 * Receives decoded pictures unconverted from {@link VideoDecoder#decodeFrames(int[], PictureSink)},
 * for callers that keep them compact (YUV is half the bytes of RGB) and convert later with {@link
 * PackedPicture}: host planes only, so CPU decoders only (a {@link PictureReceiver} is handed every
 * picture, NVDEC's too, and decides per picture). Called on the decoding thread, once per request.
 */
@FunctionalInterface
public interface PictureSink {
  /** {@code frameIndex}: the picture's presentation position in its file. */
  void accept(int request, RawPicture picture, double ptsSeconds, long frameIndex);
}
