package org.robostream.fetch;

import org.robostream.RobostreamException;

/**
 * A frame of a sample could not be fetched: the file, the episode, the camera (null for table data)
 * and the problem. Internal: the loader's worker turns it into the public {@code
 * stream.SampleException} with the same four facts and the same cause, which is what users catch.
 * (The fetch package sits below {@code stream}, so it cannot throw that type itself.) Immutable.
 */
public final class FetchException extends RobostreamException {
  /** Where the fetch failed and why, as the public exception reports it. */
  public record Failure(String file, int episode, String camera, String problem) {}

  private final Failure failure;

  FetchException(String file, int episode, String camera, String problem, Throwable cause) {
    super(
        file
            + ": episode "
            + episode
            + (camera == null ? "" : ", camera " + camera)
            + ": "
            + problem,
        cause);
    this.failure = new Failure(file, episode, camera, problem);
  }

  public Failure failure() {
    return failure;
  }
}
