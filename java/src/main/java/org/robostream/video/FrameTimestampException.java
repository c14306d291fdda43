package org.robostream.video;

/**
 * No frame lies within the tolerance of a queried timestamp (or the query is negative, NaN or
 * beyond the last frame). Carries the query and the nearest frame's pts so callers can report or
 * skip the sample.
 */
public class FrameTimestampException extends VideoException {
  private final double querySeconds;
  private final double nearestPtsSeconds;
  private final double toleranceSeconds;

  public FrameTimestampException(
      String file, double querySeconds, double nearestPtsSeconds, double toleranceSeconds) {
    super(
        file,
        String.format(
            "no frame within %.6g s of timestamp %.6f s (nearest frame pts %.6f s, off by %.6g s)",
            toleranceSeconds,
            querySeconds,
            nearestPtsSeconds,
            Math.abs(querySeconds - nearestPtsSeconds)));
    this.querySeconds = querySeconds;
    this.nearestPtsSeconds = nearestPtsSeconds;
    this.toleranceSeconds = toleranceSeconds;
  }

  public double querySeconds() {
    return querySeconds;
  }

  public double nearestPtsSeconds() {
    return nearestPtsSeconds;
  }

  public double toleranceSeconds() {
    return toleranceSeconds;
  }
}
