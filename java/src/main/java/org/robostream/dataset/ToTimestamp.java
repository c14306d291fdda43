package org.robostream.dataset;

/**
 * What an episodes table's {@code to_timestamp} marks for a camera span: where the episode ends, or
 * its last frame's time. Both writers' conventions place the same frames (frames are placed by the
 * episodes' lengths; {@code to_timestamp} only confirms that a length fills its span), so both are
 * accepted, and {@code inspect} says which a dataset uses.
 */
public enum ToTimestamp {
  /** {@code from_timestamp + length / fps}: where the episode ends (LeRobot's writers). */
  END,
  /** {@code from_timestamp + (length - 1) / fps}: the episode's last frame (another writer's). */
  LAST_FRAME
}
