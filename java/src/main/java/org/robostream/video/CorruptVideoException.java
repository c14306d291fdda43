package org.robostream.video;

/**
 * The file is a video container but its bytes cannot be demuxed or decoded (damaged, truncated).
 */
public class CorruptVideoException extends VideoException {
  public CorruptVideoException(String file, String problem) {
    super(file, problem);
  }

  public CorruptVideoException(String file, String problem, Throwable cause) {
    super(file, problem, cause);
  }
}
