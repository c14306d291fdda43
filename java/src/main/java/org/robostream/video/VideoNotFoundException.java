package org.robostream.video;

/** The video file does not exist or cannot be read. */
public class VideoNotFoundException extends VideoException {
  public VideoNotFoundException(String file, String problem) {
    super(file, problem);
  }

  public VideoNotFoundException(String file, String problem, Throwable cause) {
    super(file, problem, cause);
  }
}
