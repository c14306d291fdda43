package org.robostream.video;

/**
 * Counters of one decoder (or a sum over several): frames decoded vs delivered is the decode
 * amplification that GOP structure and access order cost. Immutable snapshot.
 */
public record DecodeStats(
    long framesDecoded, long framesDelivered, long seeks, long packetsRead, long bytesRead) {
  public static final DecodeStats ZERO = new DecodeStats(0, 0, 0, 0, 0);

  /** Frames decoded per frame delivered (1.0 is perfect; 0 when nothing was delivered). */
  public double decodeAmplification() {
    return framesDelivered == 0 ? 0.0 : framesDecoded / (double) framesDelivered;
  }

  public DecodeStats plus(DecodeStats o) {
    return new DecodeStats(
        framesDecoded + o.framesDecoded,
        framesDelivered + o.framesDelivered,
        seeks + o.seeks,
        packetsRead + o.packetsRead,
        bytesRead + o.bytesRead);
  }
}
