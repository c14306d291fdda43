package org.robostream.video;

/** The video is valid but uses a codec, pixel format or feature robostream does not decode. */
public class UnsupportedVideoException extends VideoException {
  public UnsupportedVideoException(String file, String problem) {
    super(file, problem);
  }

  public UnsupportedVideoException(String file, String problem, Throwable cause) {
    super(file, problem, cause);
  }
}
