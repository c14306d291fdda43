package org.robostream.video;

import org.robostream.RobostreamException;

/** A problem with one video file; {@link #file()} names it and the message says what is wrong. */
public class VideoException extends RobostreamException {
  private final String file;

  public VideoException(String file, String problem) {
    super(file + ": " + problem);
    this.file = file;
  }

  public VideoException(String file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
    this.file = file;
  }

  /** The file (path or URL) concerned. */
  public String file() {
    return file;
  }
}
