package org.robostream.codec;

/**
 * What one {@link Decoder#decode} call delivered: per request, the pts (seconds) and the
 * presentation frame index of the frame written into its slot. Immutable.
 */
public record DecodeResult(double[] ptsSeconds, long[] frameIndices) {
  public DecodeResult {
    ptsSeconds = ptsSeconds.clone();
    frameIndices = frameIndices.clone();
  }

  @Override
  public double[] ptsSeconds() {
    return ptsSeconds.clone();
  }

  @Override
  public long[] frameIndices() {
    return frameIndices.clone();
  }

  public int size() {
    return ptsSeconds.length;
  }

  public double ptsSeconds(int request) {
    return ptsSeconds[request];
  }

  public long frameIndex(int request) {
    return frameIndices[request];
  }
}
