package org.robostream.video;

import org.robostream.FileException;

/** A problem with one video file; {@link #file()} names it and the message says what is wrong. */
public class VideoException extends FileException {
  public VideoException(String file, String problem) {
    super(file, problem);
  }

  public VideoException(String file, String problem, Throwable cause) {
    super(file, problem, cause);
  }
}
