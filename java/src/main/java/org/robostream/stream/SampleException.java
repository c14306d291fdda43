package org.robostream.stream;

import org.robostream.FileException;
import org.robostream.fetch.FetchException;

/**
 * A sample could not be built: names the file, the episode and (for video) the camera. Raised out
 * of the batch iterator; the stream never ends silently on a bad file. The cause is the typed error
 * of the layer that failed ({@code VideoException}, {@code DatasetException}).
 */
public final class SampleException extends FileException {
  private final int episode;
  private final String camera;

  public SampleException(String file, int episode, String camera, String problem, Throwable cause) {
    super(
        file,
        "episode " + episode + (camera == null ? "" : ", camera " + camera) + ": " + problem,
        cause);
    this.episode = episode;
    this.camera = camera;
  }

  /**
   * The public form of a worker's failure to fetch a sample's frames: same facts, same cause, and
   * the fetch's own stack trace and suppressed exceptions (what closing the worker's resources
   * added), so the trace still shows where it failed rather than where it was translated.
   */
  static SampleException of(FetchException e) {
    FetchException.Failure f = e.failure();
    SampleException s =
        new SampleException(f.file(), f.episode(), f.camera(), f.problem(), e.getCause());
    s.setStackTrace(e.getStackTrace());
    for (Throwable suppressed : e.getSuppressed()) {
      s.addSuppressed(suppressed);
    }
    return s;
  }

  public int episode() {
    return episode;
  }

  /** The camera (video feature), or null for table data. */
  public String camera() {
    return camera;
  }
}
