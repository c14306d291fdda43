package org.robostream.video;

/**
 * The file is not a video at all: empty, or an HTML/JSON page (a typical sign of an authentication
 * or revision problem on a hub) or some other format.
 */
public class NotAVideoException extends VideoException {
  public NotAVideoException(String file, String problem) {
    super(file, problem);
  }
}
