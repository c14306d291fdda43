package org.robostream;

/** Root of robostream's typed exceptions. Unchecked: trainers usually let them end the run. */
public class RobostreamException extends RuntimeException {
  public RobostreamException(String message) {
    super(message);
  }

  public RobostreamException(String message, Throwable cause) {
    super(message, cause);
  }
}
