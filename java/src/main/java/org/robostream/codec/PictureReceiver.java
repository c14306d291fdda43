package org.robostream.codec;

/**
 * Receives a decode call's pictures ({@link Decoder#deliverFrames}, {@link Decoder#deliver}): once
 * per request, in the order the decoder produces them; the requests of one frame asked for more
 * than once come one after the other with the same picture. What the receiver keeps of a picture it
 * must copy or convert inside the call (see {@link DecodedPicture}). Called on the decoding thread.
 */
@FunctionalInterface
public interface PictureReceiver {
  /** {@code frameIndex}: the picture's presentation position in its file. */
  void accept(int request, DecodedPicture picture, double ptsSeconds, long frameIndex);
}
